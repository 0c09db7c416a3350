"""The virtual AMD GPU: amdkfd and render nodes, PM4/AQL/SDMA queue processors, the RDNA3 wave
simulator (``shader/``), and ``simulate`` to run one dispatch without a driver."""
