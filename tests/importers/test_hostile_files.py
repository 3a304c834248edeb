"""Hostile BattleScribe files (issue 16, "Importer safety" and "Bad files give tracebacks"):
zip bombs, archives of many members, XML entity expansion (billion laughs, external entities),
deep nesting, unknown encodings, absurd numbers. Each must end in a one-line
:class:`DataFileError` naming the file (and the field where there is one), quickly and without
reading the whole of a hostile archive into memory.

Memory is measured with ``tracemalloc`` (the peak of Python allocations while the file is
refused), never with a clock.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from umpire.core.errors import DataFileError
from umpire.importers import battlescribe
from umpire.importers.battlescribe import read_data_file, read_roster, read_xml, roster_to_force

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROSTER = FIXTURES / "ussr-motor-rifles.ros"
GIB = 1 << 30
MIB = 1 << 20


# --- a zip writer that can lie ------------------------------------------------------------------


def _deflated_zeros(size: int) -> tuple[bytes, int]:
    """Raw deflate data of ``size`` zero bytes (``size`` a multiple of 1 MiB) and its CRC-32,
    built from one compressed megabyte repeated (each ends on a full flush, so the copies
    decode one after another): a gigabyte costs a second, not the ten a real compression
    takes."""
    chunk = bytes(MIB)
    unit = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = unit.compress(chunk) + unit.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    crc = 0
    for _ in range(size // MIB):
        crc = zlib.crc32(chunk, crc)
    return block * (size // MIB) + end, crc


def _write_zip(
    path: Path, members: list[tuple[str, bytes, int, int]], declared_count: int | None = None
) -> Path:
    """A zip of deflated ``(name, data, crc, declared size)`` members, written by hand so the
    declared sizes and member count can be anything."""
    body = bytearray()
    central = bytearray()
    for name, data, crc, size in members:
        raw = name.encode()
        offset = len(body)
        body += struct.pack(
            "<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(data), size, len(raw), 0
        )
        body += raw + data
        central += struct.pack(
            "<4s6H3L5H2L",
            b"PK\x01\x02",
            20,
            20,
            0,
            8,
            0,
            0x21,
            crc,
            len(data),
            size,
            len(raw),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        central += raw
    count = len(members) if declared_count is None else declared_count
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(central), len(body), 0)
    path.write_bytes(bytes(body) + bytes(central) + end)
    return path


def _member(name: str, content: bytes) -> tuple[str, bytes, int, int]:
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return name, packer.compress(content) + packer.flush(), zlib.crc32(content), len(content)


@pytest.fixture(scope="module")
def gigabyte() -> tuple[bytes, int]:
    return _deflated_zeros(GIB)


def _refused(read: Callable[[Path], Any], path: Path) -> tuple[str, int]:
    """The one-line error ``read(path)`` ends in, and the peak bytes Python allocated."""
    tracemalloc.start()
    try:
        with pytest.raises(DataFileError) as caught:
            read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    message = str(caught.value)
    assert "\n" not in message and path.name in message, message
    return message, peak


# --- zip bombs and member counts ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("suffix", "member", "read"),
    [
        (".rosz", "roster.ros", read_roster),
        (".catz", "nation.cat", read_data_file),
        (".gstz", "system.gst", read_data_file),
    ],
)
def test_a_megabyte_zip_of_a_gigabyte_is_refused_unread(
    tmp_path: Path,
    gigabyte: tuple[bytes, int],
    suffix: str,
    member: str,
    read: Callable[[Path], Any],
) -> None:
    data, crc = gigabyte
    bomb = _write_zip(tmp_path / f"bomb{suffix}", [(member, data, crc, GIB)])
    assert bomb.stat().st_size < 2 * MIB  # the case: about 1 MB on disk
    message, peak = _refused(read, bomb)
    assert "larger than 16 MB" in message and "1,073,741,824 bytes" in message
    assert peak < 4 * MIB  # the member is refused from its declared size, never inflated


def test_a_zip_that_lies_about_its_size_is_stopped_while_inflating(
    tmp_path: Path, gigabyte: tuple[bytes, int]
) -> None:
    """A member declaring 1 KB that inflates to a gigabyte: reading stops at the declared size
    (the CRC then fails), so memory stays small whatever the data holds."""
    data, crc = gigabyte
    liar = _write_zip(tmp_path / "liar.rosz", [("roster.ros", data, crc, 1000)])
    message, peak = _refused(read_roster, liar)
    assert "damaged zip archive" in message or "cannot be unzipped" in message
    assert peak < 8 * MIB  # a few chunks of the data, never the gigabyte


def test_inflating_past_the_cap_stops_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The streaming cap itself (a second line behind the declared size): with the cap lowered
    to 1 MiB, an honestly declared 8 MiB member is refused while reading, never whole."""
    data, crc = _deflated_zeros(8 * MIB)
    path = _write_zip(tmp_path / "big.rosz", [("roster.ros", data, crc, 8 * MIB)])
    monkeypatch.setattr(battlescribe, "MAX_XML_BYTES", 1 * MIB)
    with pytest.raises(DataFileError, match=r"big\.rosz: .*larger than 1 MB"):
        read_roster(path)
    chunks: list[int] = []
    original = battlescribe._read_capped

    def counting(handle: Any, where: Path, what: str) -> bytes:
        class Spy:
            def read(self, n: int) -> bytes:
                chunk: bytes = handle.read(n)
                chunks.append(len(chunk))
                return chunk

        return original(Spy(), where, what)  # type: ignore[arg-type]

    monkeypatch.setattr(battlescribe, "_read_capped", counting)
    monkeypatch.setattr(  # declare it small so only the streaming cap can stop it
        battlescribe, "MAX_XML_BYTES", 1 * MIB
    )
    path = _write_zip(tmp_path / "big2.rosz", [("roster.ros", data, crc, MIB)])
    with pytest.raises(DataFileError):
        read_roster(path)
    assert sum(chunks) <= 2 * MIB  # read stopped within a chunk of the cap, not at 8 MiB


def test_an_archive_of_many_members_is_refused_from_its_end_record(tmp_path: Path) -> None:
    members = [_member(f"m{i}.txt", b"") for i in range(20_000)]
    many = _write_zip(tmp_path / "many.rosz", members)
    message, peak = _refused(read_roster, many)
    assert "lists 20000 members" in message
    assert peak < 2 * MIB  # the member list (20,000 ZipInfo objects) was never built


def test_an_archive_that_hides_its_members_from_the_end_record_is_still_capped(
    tmp_path: Path,
) -> None:
    members = [_member(f"m{i}.ros", b"<roster/>") for i in range(40)]
    path = _write_zip(tmp_path / "hidden.rosz", members, declared_count=1)
    message, _ = _refused(read_roster, path)
    assert "members" in message


def test_a_zip64_archive_is_refused(tmp_path: Path) -> None:
    path = _write_zip(tmp_path / "z64.catz", [_member("a.cat", b"<catalogue/>")], 0xFFFF)
    message, _ = _refused(read_data_file, path)
    assert "members" in message


def test_a_plain_file_past_the_cap_is_refused_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.ros"
    with big.open("wb") as handle:  # sparse: 40 MB that cost nothing to write
        handle.truncate(40 * MIB)
    message, peak = _refused(read_roster, big)
    assert "larger than 16 MB" in message
    assert peak < 24 * MIB  # at most the cap (plus a chunk) was read


def test_a_zipped_file_still_reads(tmp_path: Path) -> None:
    path = _write_zip(tmp_path / "ok.rosz", [_member("roster.ros", ROSTER.read_bytes())])
    assert read_roster(path).forces


# --- XML entities: none of any size -----------------------------------------------------------

LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE roster [\n<!ENTITY lol "lol">\n'
    + b"".join(
        b'<!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
        for i in range(1, 10)
    )
    + b']>\n<roster><forces><force name="&lol9;"/></forces></roster>'
)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("billion-laughs.ros", LAUGHS),
        (
            "one-small-entity.ros",
            b'<!DOCTYPE roster [<!ENTITY a "x">]><roster name="&a;"><forces/></roster>',
        ),
        (
            "external-entity.ros",
            b'<!DOCTYPE roster [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
            b'<roster name="&secret;"/>',
        ),
        (
            "parameter-entity.ros",
            b'<!DOCTYPE roster [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]><roster/>',
        ),
        ("external-dtd.ros", b'<!DOCTYPE roster SYSTEM "http://127.0.0.1:9/x.dtd"><roster/>'),
        ("bare-doctype.ros", b"<!DOCTYPE roster><roster/>"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_document_type_declarations_and_entities_are_refused(
    tmp_path: Path, name: str, content: bytes
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    message, peak = _refused(read_roster, path)
    assert "document type declaration" in message
    assert "root:" not in message  # nothing of /etc/passwd was read into the message
    assert peak < 2 * MIB


def test_an_undeclared_entity_is_bad_xml(tmp_path: Path) -> None:
    path = tmp_path / "undeclared.ros"
    path.write_bytes(b'<roster name="&nope;"/>')
    message, _ = _refused(read_roster, path)
    assert "not valid XML" in message


def test_the_parser_is_defusedxml() -> None:
    """Not only a test of behaviour: the module parses through defusedxml, so a later edit that
    goes back to xml.etree.fromstring fails here."""
    source = Path(battlescribe.__file__).read_text(encoding="utf-8")
    assert "defused.fromstring(raw, forbid_dtd=True)" in source
    assert "ET.fromstring(" not in source and "ET.parse(" not in source


# --- other bad XML --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("encoding.ros", b'<?xml version="1.0" encoding="klingon"?><roster/>', "not valid XML"),
        ("latin.ros", b'<roster name="caf\xe9"/>', "not valid XML"),
        ("utf16.ros", '<?xml version="1.0"?><roster/>'.encode("utf-16"), "no force"),
        ("empty.ros", b"", "not valid XML"),
        ("nul.ros", b"<roster>\x00</roster>", "not valid XML"),
        ("deep.ros", b"<a>" * 50_000 + b"</a>" * 50_000, "not a BattleScribe roster"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "",
)
def test_bad_xml_is_one_line(tmp_path: Path, name: str, content: bytes, needle: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    message, _ = _refused(read_roster, path)
    assert needle in message


def _nested(tag: str, wrapper: str, depth: int, leaf: str) -> bytes:
    opening = f'<{wrapper}><{tag} name="n" number="1">' * depth
    closing = f"</{tag}></{wrapper}>" * depth
    return (opening + leaf + closing).encode()


def test_selections_nested_past_the_limit_are_refused(tmp_path: Path) -> None:
    inner = _nested("selection", "selections", 5_000, "")
    path = tmp_path / "deep-selections.ros"
    path.write_bytes(b'<roster><forces><force name="f">' + inner + b"</force></forces></roster>")
    message, _ = _refused(read_roster, path)
    assert "nested more than 64 levels deep" in message and "selection 'n'" in message


def test_entries_nested_past_the_limit_are_refused(tmp_path: Path) -> None:
    inner = _nested("selectionEntry", "selectionEntries", 5_000, "")
    path = tmp_path / "deep.cat"
    path.write_bytes(b'<catalogue id="c">' + inner + b"</catalogue>")
    message, _ = _refused(read_data_file, path)
    assert "nested more than 64 levels deep" in message and "entry 'n'" in message


def test_nesting_within_the_limit_reads(tmp_path: Path) -> None:
    inner = _nested("selectionEntry", "selectionEntries", 60, "")
    path = tmp_path / "ok.cat"
    path.write_bytes(b'<catalogue id="c">' + inner + b"</catalogue>")
    assert len(list(read_data_file(path).all_entries())) == 60


# --- numbers --------------------------------------------------------------------------------


def _roster_with(tmp_path: Path, old: str, new: str) -> Path:
    text = ROSTER.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "edited.ros"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ("nan", "is not a number between"),
        ("inf", "is not a number between"),
        ("-Infinity", "is not a number between"),
        ("1e400", "is not a number between"),
        ("9" * 400, "is not a number between"),
        ("9" * 5000, "is not a number between"),
    ],
    ids=["nan", "inf", "-inf", "1e400", "400-digits", "5000-digits"],
)
def test_absurd_costs_name_the_field(tmp_path: Path, value: str, needle: str) -> None:
    path = _roster_with(tmp_path, 'value="180.0"', f'value="{value}"')
    message, _ = _refused(read_roster, path)
    assert "selection 'T64B': cost pts" in message and needle in message
    assert len(message) < 400  # a 5,000-digit value is not echoed whole


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ("100", "number 100 is more than the 99 units a force line may hold"),
        ("0", "is not a positive whole number"),
        ("-3", "is not a positive whole number"),
        ("\u00b2", "is not a positive whole number"),  # str.isdigit() is true for it
        ("9" * 400, "is not a positive whole number"),
        ("9" * 5000, "is not a positive whole number"),
    ],
    ids=["100", "0", "-3", "superscript-2", "400-digits", "5000-digits"],
)
def test_absurd_selection_numbers_name_the_field(tmp_path: Path, value: str, needle: str) -> None:
    path = _roster_with(tmp_path, 'number="3"', f'number="{value}"')
    message, _ = _refused(read_roster, path)
    assert "selection 'T64B': number" in message and needle in message
    assert "pydantic" not in message and "validation error" not in message


def test_absurd_cost_limits_name_the_field(tmp_path: Path) -> None:
    path = _roster_with(tmp_path, "<costLimits>", '<costLimits><costLimit name="pts" value="nan"/>')
    message, _ = _refused(read_roster, path)
    assert "cost limit" in message


def test_selections_of_one_unit_beyond_a_force_line_split_into_lines(tmp_path: Path) -> None:
    """Two selections of 60 of one unit make 120 units: two force lines (at most 99 each, the
    force file's limit), not a raw validation error."""
    text = ROSTER.read_text(encoding="utf-8")
    start = text.index('<selection id="sel-01"')
    end = text.index('<selection id="sel-02"')
    block = text[start:end].replace('number="3"', 'number="60"')
    path = tmp_path / "many.ros"
    path.write_text(text[:start] + block + block + text[end:], encoding="utf-8")
    force, _ = roster_to_force(path)
    t64 = [e for e in force.units if e.profile.startswith("t64")]
    assert sum(e.count for e in t64) == 120 and all(e.count <= 99 for e in t64)


# --- names and the command line -----------------------------------------------------------


def test_unreadable_names_are_one_line(tmp_path: Path) -> None:
    for path in (tmp_path / ("x" * 5000 + ".ros"), tmp_path, tmp_path / "missing.rosz"):
        with pytest.raises(DataFileError) as caught:
            read_xml(path)
        assert "\n" not in str(caught.value)


def test_force_check_of_a_zip_bomb_is_one_line_exit_2(
    tmp_path: Path, gigabyte: tuple[bytes, int]
) -> None:
    data, crc = gigabyte
    bomb = _write_zip(tmp_path / "bomb.rosz", [("roster.ros", data, crc, GIB)])
    laughs = tmp_path / "laughs.ros"
    laughs.write_bytes(LAUGHS)
    for path in (bomb, laughs):
        run = subprocess.run(
            [sys.executable, "-m", "umpire", "force", "check", str(path), "--ruleset", "sevendays"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and path.name in lines[0], run.stderr
