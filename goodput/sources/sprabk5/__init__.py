"""TI SPRABK5, the KeyStone II throughput guide: its PCIe, SRIO, HyperLink, EDMA and Ethernet numbers checked against the models."""
