"""The link-layer CRCs, on vectors published elsewhere and on changes they must notice."""

import zlib

import pytest

from goodput.models import pcie_crc


def test_the_32_bit_crc_gives_the_catalogued_check_value_of_its_polynomial():
    # CRC-32 with generator 04C11DB7, ones in, reflected, inverted out (the catalogue's CRC-32/ISO-HDLC):
    # its check value over "123456789" is CBF43926, sent lowest byte first.
    assert pcie_crc.crc(b"123456789", pcie_crc.LCRC_POLYNOMIAL, 32) == bytes.fromhex("2639F4CB")


def test_the_lcrc_is_the_reflected_crc_32_sent_lowest_byte_first_for_any_bytes():
    for data in (bytes(14), bytes(range(40)), b"\xff" * 18):
        assert pcie_crc.lcrc(data) == zlib.crc32(data).to_bytes(4, "little")


def test_lcrc_and_dllp_crc_of_an_all_zero_packet_are_those_warp_pipe_tests_for():
    # antmicro/warp-pipe tests/test_crc.cc: an MRd32 with sequence number 0 and a zero header has LCRC
    # 0xd1bb79c7, and an Ack of sequence number 0 CRC 0x62b3, each stored first byte lowest.
    assert pcie_crc.lcrc(bytes(2 + 12)) == (0xD1BB79C7).to_bytes(4, "little")
    assert pcie_crc.dllp_crc(bytes(4)) == (0x62B3).to_bytes(2, "little")


def test_the_dllp_crc_of_an_update_fc_of_the_tutorial_is_its_printed_crc():
    # Intel 324611 §3.5, Example 1, cycle 009: UpdateFC_P 80 0D 87 B5, then EF C7 before END
    assert pcie_crc.dllp_crc(bytes.fromhex("800D87B5")) == bytes.fromhex("EFC7")


def test_the_sequence_number_field_is_two_bytes_with_four_reserved_bits():
    assert pcie_crc.sequence_field(4057) == bytes.fromhex("0FD9")
    for wrong in (-1, 4096):
        with pytest.raises(ValueError, match="12 bits"):
            pcie_crc.sequence_field(wrong)


@pytest.mark.parametrize("call, words", [
    (lambda: pcie_crc.dllp_crc(bytes(5)), "4 bytes"),
    (lambda: pcie_crc.lcrc(bytes(13)), "at least 14"),
    (lambda: pcie_crc.crc(b"", 0x1_0000, 16), "polynomial below"),
    (lambda: pcie_crc.repairs(bytes(4), bytes(2), 0x100B, 16, most=3), "1 or 2"),
])
def test_bad_arguments_are_refused_with_a_message(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_repairs_names_the_changed_byte_and_nothing_for_an_intact_packet():
    good = bytes.fromhex("0FD94000000100E0000FC2000000") + bytes(4)
    crc = pcie_crc.lcrc(good)
    assert pcie_crc.repairs(good, crc, pcie_crc.LCRC_POLYNOMIAL, 32) == []
    wrong = bytearray(good)
    wrong[13] = 0x04
    assert pcie_crc.repairs(bytes(wrong), crc, pcie_crc.LCRC_POLYNOMIAL, 32) == [{13: 0x00}]
    wrong[14] = 0x01
    assert {13: 0x00, 14: 0x00} in pcie_crc.repairs(bytes(wrong), crc, pcie_crc.LCRC_POLYNOMIAL, 32)
    assert pcie_crc.repairs(bytes(wrong), crc, pcie_crc.LCRC_POLYNOMIAL, 32, most=1) == []
