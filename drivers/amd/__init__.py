"""AMD GPUs through amdkfd (/dev/kfd) and the DRM render node."""
