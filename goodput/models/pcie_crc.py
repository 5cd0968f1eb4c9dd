"""The two CRCs of the PCI Express data link layer: a TLP's LCRC and a DLLP's CRC-16.

The Base Specification defines both the same way, by a shift register and the order bits go on the
wire:

- **LCRC** (32 bits, generator polynomial ``04C11DB7``): computed over the 2-byte sequence-number field
  (4 reserved bits, then the 12-bit sequence number) and every byte of the TLP after it, header and
  data (and ECRC, if any), in the order they are sent;
- **DLLP CRC** (16 bits, generator ``100B``): computed over the 4 bytes of the DLLP.

The register starts at all ones. Each byte enters it bit 0 first, the order a lane sends the bits of a
byte. When the last byte has gone in, the remainder is inverted and mapped onto the CRC's bytes so that
they too go out lowest bit first: the register's lowest byte is sent first. That is the "reflected"
form of a CRC (as Ethernet's frame check sequence uses the same 32-bit polynomial): shifting right with
the polynomial's bits reversed, the CRC's value sent least significant byte first.

:func:`lcrc` and :func:`dllp_crc` return the CRC's bytes in the order they are sent, as an analyzer
shows them before ``END``. :func:`repairs` finds the fewest bytes of a packet (one or two) that, changed,
give a printed CRC: where a printed packet does not reproduce its CRC, it says which printed byte the
CRC was not computed over.
"""

from __future__ import annotations

from itertools import combinations

__all__ = ["LCRC_POLYNOMIAL", "DLLP_CRC_POLYNOMIAL", "crc", "lcrc", "dllp_crc", "sequence_field", "repairs"]

LCRC_POLYNOMIAL = 0x04C11DB7  #: the LCRC's generator polynomial (its x^32 term left out)
DLLP_CRC_POLYNOMIAL = 0x100B  #: the DLLP CRC's generator polynomial (its x^16 term left out)


def _reversed_bits(value: int, width: int) -> int:
    return int(f"{value:0{width}b}"[::-1], 2)


def crc(data: bytes, polynomial: int, width: int) -> bytes:
    """The link-layer CRC of ``data`` with generator ``polynomial`` of ``width`` bits, by the rule of this
    module's docstring (register seeded with ones, bits in least significant first, remainder inverted),
    as the ``width // 8`` bytes it is sent as, first byte first."""
    if width % 8 or not 0 < polynomial < (1 << width):
        raise ValueError(f"a {width}-bit CRC needs a whole number of bytes and a polynomial below 2**{width}")
    mask = (1 << width) - 1
    reflected = _reversed_bits(polynomial, width)
    register = mask
    for byte in data:
        register ^= byte
        for _ in range(8):
            register = (register >> 1) ^ reflected if register & 1 else register >> 1
    return (register ^ mask).to_bytes(width // 8, "little")


def lcrc(sequence_and_tlp: bytes) -> bytes:
    """The 4 LCRC bytes of a TLP, in the order they are sent, from its sequence-number field (2 bytes)
    and the TLP's bytes after it."""
    if len(sequence_and_tlp) < 2 + 12:
        raise ValueError(f"a TLP with its sequence number is at least 14 bytes, not {len(sequence_and_tlp)}")
    return crc(bytes(sequence_and_tlp), LCRC_POLYNOMIAL, 32)


def dllp_crc(dllp: bytes) -> bytes:
    """The 2 CRC bytes of a DLLP, in the order they are sent, from its 4 bytes."""
    if len(dllp) != 4:
        raise ValueError(f"a DLLP is 4 bytes before its CRC, not {len(dllp)}")
    return crc(bytes(dllp), DLLP_CRC_POLYNOMIAL, 16)


def sequence_field(number: int) -> bytes:
    """The 2-byte field that carries a TLP's 12-bit sequence number (its top 4 bits reserved, zero)."""
    if not 0 <= number < 4096:
        raise ValueError(f"a sequence number is 12 bits (0 to 4095), not {number}")
    return number.to_bytes(2, "big")


def repairs(data: bytes, printed: bytes, polynomial: int, width: int, most: int = 2) -> list[dict[int, int]]:
    """The changes of at most ``most`` bytes of ``data`` (1 or 2) after which its CRC is ``printed``: each a
    ``{position: byte}``; the fewest bytes first, none if even ``most`` do not do it (or ``data`` already
    gives ``printed``).

    A CRC is linear: changing bytes changes the CRC by the CRC of the change alone (with no seed and no
    inversion), so each byte's 255 changes are computed once and pairs are looked up, not tried.
    """
    if most not in (1, 2):
        raise ValueError(f"repairs looks for changes of 1 or 2 bytes, not {most}")
    data, target = bytes(data), int.from_bytes(printed, "little")
    base = int.from_bytes(crc(data, polynomial, width), "little")
    if base == target:
        return []
    want = base ^ target

    def delta(i: int, x: int) -> int:
        changed = bytearray(data)
        changed[i] ^= x
        return int.from_bytes(crc(bytes(changed), polynomial, width), "little") ^ base

    deltas = [{delta(i, x): x for x in range(1, 256)} for i in range(len(data))]
    single = [{i: data[i] ^ table[want]} for i, table in enumerate(deltas) if want in table]
    if single or most == 1:
        return single
    return [{i: data[i] ^ x, j: data[j] ^ deltas[j][want ^ d]}
            for i, j in combinations(range(len(data)), 2) for d, x in deltas[i].items() if want ^ d in deltas[j]]
