"""The virtual NVIDIA GPU: /proc/driver/nvidia, the nvidia and nvidia-uvm device nodes and a strict
resource manager (clients, devices, subdevices and the controls a probe issues), over per-chip class
lists (GA102, AD102, GH100).  GPFIFO channels, QMD launches and the SASS simulator come next."""
