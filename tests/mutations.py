"""Mutations of a log's lines, drawn by hypothesis, for the parsers' robustness tests."""

from hypothesis import strategies as st


def mutate(data, lines: list[str], characters=None) -> list[str]:
    """Up to four random edits: drop, duplicate, truncate, replace a character, swap two lines."""
    lines = list(lines)
    chars = st.characters(codec="utf-8") if characters is None else characters
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["drop", "duplicate", "truncate", "replace_char", "swap"]))
        if action == "drop" and len(lines) > 1:
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, lines[i])
        elif action == "truncate" and lines[i]:
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif action == "replace_char" and lines[i]:
            j = data.draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:j] + data.draw(chars) + lines[i][j + 1:]
        elif action == "swap":
            k = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[k] = lines[k], lines[i]
    return lines
