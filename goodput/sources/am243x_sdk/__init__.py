"""The TI AM243x MCU+ SDK datasheet: its latency, bandwidth, boot, SPI, CAN and Ethernet numbers checked against the models."""
