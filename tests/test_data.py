import shutil

import pytest
from frictionless import Package

from goodput.core import data
from goodput.core.errors import DataError


def test_every_published_table_is_valid_against_the_data_package(root):
    report = Package(str(root / "data" / "published" / "datapackage.json")).validate()
    assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "note"])


def test_every_csv_in_the_folder_is_described_by_the_package(root):
    described = {r["path"] for r in data.package()["resources"]}
    on_disk = {p.name for p in (root / "data" / "published").glob("*.csv")}
    assert on_disk == described


@pytest.mark.parametrize("name", data.names())
def test_each_table_loads_with_its_provenance_and_units(name):
    frame = data.load(name)
    assert len(frame) > 0
    p = frame.attrs["provenance"]
    for key in ("document", "citation", "table", "conditions"):
        assert p[key], f"{name}: provenance lacks {key}"
    assert set(frame.attrs["units"]) == set(frame.columns)
    assert set(frame.attrs["printed"]) == set(frame.columns)


@pytest.mark.parametrize("name", data.names())
def test_each_tables_rows_read_without_pandas_hold_the_frames_values(name):
    rows = data.rows(name)
    frame = data.load(name)
    assert [list(row) for row in rows] == [list(frame.columns)] * len(frame)
    for row, (_, cells) in zip(rows, frame.iterrows()):
        for column, value in row.items():  # pandas makes an integer column with an empty cell float: equal values
            assert value == cells[column] or (value != value and cells[column] != cells[column]), (column, value)


def test_a_table_keeps_the_text_as_printed():
    frame = data.load("keystone2-s8-hyperlink-rate")
    assert frame.attrs["printed"]["bit_rate_gbit_s"] == ("35.5",)
    assert frame["bit_rate_gbit_s"].iloc[0] == 35.5
    assert data.load("an3935-table1").attrs["printed"]["transfer_rate_gbaud"][3] == "5.0"


def test_a_selection_of_a_long_tables_rows_keeps_each_cells_text_as_printed():
    t = data.load("an3935-table16")
    x4 = t[(t["series"] == "calculated") & (t["lanes"] == 4)]
    assert list(data.printed(x4, "gbit_s"))[:3] == ["4.00", "7.11", "11.64"]
    assert list(data.printed(x4, "bytes_as_printed"))[-1] == "32K"
    row = next(x4.itertuples())
    assert x4.attrs["printed"]["gbit_s"][row.Index] == "4.00" and row.gbit_s == 4.0
    assert data.printed(x4, "gbit_s").index.equals(x4.index)


def test_a_shared_condition_is_one_value_and_the_differing_ones_name_each_printed_column():
    t = data.load("an3935-table9")
    measured = t[t["series"] == "measured"]
    assert data.single(measured, "lanes") == 4 and data.single(t, "device") == "MSC8156"
    with pytest.raises(DataError, match=r"an3935-table9: column 'mps_bytes' holds \[256, 128\]"):
        data.single(t, "mps_bytes")
    formats = {"lanes": "x{:g}", "mps_bytes": "MPS {:g}", "dma_channels": "{:g} in flight"}
    assert list(data.varying(t, formats, within=["series"]).drop_duplicates()) == ["MPS 256", "MPS 128"]
    t11 = data.load("an3935-table11")
    assert list(data.varying(t11, formats, within=["series"]).drop_duplicates()) == [
        "", "1 in flight", "4 in flight", "8 in flight"]  # the calculated column differs in nothing
    assert set(data.varying(t11, formats)) == {"1 in flight", "4 in flight", "8 in flight", ""}


def test_a_long_table_spreads_back_to_its_printed_columns():
    from goodput.render import tables

    t3 = tables.published_table("keystone2-table3", across=["generation", "access"])
    assert list(t3.columns) == ["source", "KeyStone I, single read", "KeyStone I, burst read",
                                "KeyStone II, single read", "KeyStone II, burst read"]
    assert t3.iloc[1].tolist() == ["L2 SRAM", "7", "3.5", "7", "3.5"]  # the text as printed
    assert t3.iloc[-1].tolist() == ["DDR 3B RAM (SL3)", "", "", "152", "43"]  # KeyStone I prints N/A
    t4 = tables.published_table("keystone2-table4", across=["generation", "access"])
    assert t4.shape == (5, 3) and t4.iloc[0].tolist() == ["L1 Cache Hit", "4", "0.8"]


def test_an_unknown_table_is_an_error_naming_the_known_ones():
    with pytest.raises(DataError, match="an3935-table1"):
        data.load("an3935-table99")


def _copy_package(root, tmp_path, monkeypatch):
    dst = tmp_path / "published"
    shutil.copytree(root / "data" / "published", dst)
    monkeypatch.setenv("GOODPUT_DATA", str(dst))
    return dst


def test_a_malformed_cell_names_the_file_and_line(root, tmp_path, monkeypatch):
    dst = _copy_package(root, tmp_path, monkeypatch)
    path = dst / "an3935-table1.csv"
    lines = path.read_text().splitlines()
    lines[3] = lines[3].replace(",4,", ",four,")
    path.write_text("\n".join(lines) + "\n")
    for read in (data.load, data.rows):
        with pytest.raises(DataError, match=r"an3935-table1\.csv:4: column 'lanes' holds 'four'"):
            read("an3935-table1")


def test_a_renamed_column_is_an_error(root, tmp_path, monkeypatch):
    dst = _copy_package(root, tmp_path, monkeypatch)
    path = dst / "an3935-table1.csv"
    path.write_text(path.read_text().replace("bit_rate_gbit_s", "bitrate", 1))
    for read in (data.load, data.rows):
        with pytest.raises(DataError, match=r"an3935-table1\.csv:1: columns"):
            read("an3935-table1")
