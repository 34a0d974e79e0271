"""`riichi-server ladder ...` as an operator runs it (issue 26: "a ladder created by an operator
command"): a ladder made once with its rules and fill, listed, its (empty) table shown; a bad name
or fill, a second ladder of one name and an unknown ladder each said in one line."""

from __future__ import annotations

from server.app import main


def _run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["ladder", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_ladder_is_created_once_listed_and_its_table_shown(tmp_path, capsys):
    db = ("--db", str(tmp_path / "riichi.sqlite3"))
    status, out, _ = _run(capsys, "create", "weekly", "--rules", "tenhou", "--fill", "none", *db)
    assert status == 0 and "created ladder weekly: tenhou rules, fill none" in out and "--ladder weekly" in out
    status, _, err = _run(capsys, "create", "weekly", *db)
    assert status == 1 and "a ladder named weekly exists already" in err
    status, out, _ = _run(capsys, "list", *db)
    assert status == 0 and out.split("\n")[1].split() == ["weekly", "tenhou", "none", "0", "0"]
    status, out, err = _run(capsys, "ratings", "weekly", "--rebuild", *db)
    assert status == 0 and "rebuilt from 0 games: 0 rating(s) differed from those kept" in err
    assert "no ladder is named daily" in _run(capsys, "ratings", "daily", *db)[2]


def test_a_bad_ladder_name_is_refused_in_one_line(tmp_path, capsys):
    db = ("--db", str(tmp_path / "riichi.sqlite3"))
    status, _, err = _run(capsys, "create", "a/b", *db)
    assert status == 1 and err.strip() == ("riichi-server: ladder name 'a/b': 1-40 letters, digits, '-' or '_' (it is"
                                           " in its page's address)")
    assert main(["--ladder", "a b", "--db", str(tmp_path / "x.sqlite3")]) == 1
    assert "--ladder: ladder name 'a b'" in capsys.readouterr().err
