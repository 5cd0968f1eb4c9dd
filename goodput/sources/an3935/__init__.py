"""Freescale AN3935, PCI Express throughput of the MSC8156 and MSC8157 DSPs: its tables checked against the models."""
