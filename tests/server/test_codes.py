"""Invite and watch codes (issue 4: private tables with invite codes)."""

from server.lobby import new_code


def test_a_code_never_starts_with_a_dash_so_a_command_line_does_not_read_it_as_an_option():
    """`riichi-play --join -9hd...` failed with 'expected one argument' (and so did a test,
    one run in 64): codes are now drawn again when they start with '-'."""
    codes = [new_code() for _ in range(5000)]
    assert not [c for c in codes if c.startswith("-")]
    assert all(len(c) == 16 for c in codes) and len(set(codes)) == len(codes)
