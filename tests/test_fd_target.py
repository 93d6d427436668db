"""A descriptor's target typed once (`model.fd.FdTarget.parse`): a table of what readlink gives,
odd paths among them, and the predicates checked against the prefix tests they replaced."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gvlstress.model.fd import PTY_SLAVE, FdKind, FdTarget, pty_master

K = FdKind

TABLE: list[tuple[str, FdKind, int | None, str, str | None]] = [
    # link, kind, inode, name, pty
    ("pipe:[123]", K.PIPE, 123, "", None),
    ("socket:[456]", K.SOCKET, 456, "", None),
    ("anon_inode:[eventfd]", K.ANON_INODE, None, "eventfd", None),
    ("anon_inode:[eventpoll]", K.ANON_INODE, None, "eventpoll", None),
    ("anon_inode:inotify", K.ANON_INODE, None, "inotify", None),
    ("anon_inode:[pidfd]", K.ANON_INODE, None, "pidfd", None),
    ("ptmx:[3]", K.PTY_MASTER, None, "", "3"),
    ("net:[4026531992]", K.OTHER, 4026531992, "net", None),
    ("/dev/pts/3", K.PATH, None, "/dev/pts/3", "3"),
    ("/dev/pts/ptmx", K.PATH, None, "/dev/pts/ptmx", "ptmx"),  # what the prefix test said too
    ("/dev/ptmx", K.PATH, None, "/dev/ptmx", None),
    ("/dev/tty1", K.PATH, None, "/dev/tty1", None),
    ("/tmp/pipe:[1]", K.PATH, None, "/tmp/pipe:[1]", None),  # a file named like a pipe
    ("/tmp/data (deleted)", K.PATH, None, "/tmp/data (deleted)", None),
    ("/memfd:shm (deleted)", K.PATH, None, "/memfd:shm (deleted)", None),
    ("/home/a b/new\nline", K.PATH, None, "/home/a b/new\nline", None),
    ("/", K.PATH, None, "/", None),
    ("pipe:", K.PIPE, None, "", None),  # malformed: still a pipe, no inode
    ("pipe:[1]x", K.PIPE, None, "", None),
    ("socket:[12", K.SOCKET, None, "", None),
    ("socket:[\u00b2]", K.SOCKET, None, "", None),  # a digit to isdigit(), not to int(): no crash
    ("ptmx:foo", K.OTHER, None, "ptmx", None),
    ("?", K.OTHER, None, "", None),
    ("", K.OTHER, None, "", None),
    ("relative/path", K.OTHER, None, "", None),
]


@pytest.mark.parametrize(("link", "kind", "inode", "name", "pty"), TABLE)
def test_a_link_is_parsed_into_its_kind_and_parts(
    link: str, kind: FdKind, inode: int | None, name: str, pty: str | None
) -> None:
    # GIVEN what readlink gave  WHEN it is parsed
    fd = FdTarget.parse(link)
    # THEN its kind and parts are typed, and the text is kept as it was
    assert (fd.kind, fd.inode, fd.name, fd.pty) == (kind, inode, name, pty)
    assert fd.text == str(fd) == link


def test_the_two_ends_of_a_pseudo_terminal_name_each_other() -> None:
    assert FdTarget.parse("/dev/pts/7").other_pty_end == pty_master("7") == "ptmx:[7]"
    assert FdTarget.parse("ptmx:[7]").other_pty_end == "/dev/pts/7"
    assert FdTarget.parse("pipe:[7]").other_pty_end is None
    assert FdTarget.parse("/dev/ptmx").other_pty_end is None


def test_a_path_is_shown_redacted_and_a_pipe_as_it_is() -> None:
    secret = "/runs/api_key=hunter2/out.log"
    assert "hunter2" not in FdTarget.parse(secret).shown
    assert FdTarget.parse("/tmp/out.log").shown == "/tmp/out.log"
    for link in ("pipe:[1]", "socket:[2]", "anon_inode:[eventfd]"):
        assert FdTarget.parse(link).shown == link


LINKS = st.one_of(
    st.text(),
    st.sampled_from([row[0] for row in TABLE]),
    st.builds(
        str.__add__,
        st.sampled_from(
            ["pipe:", "socket:", "socket:[", "anon_inode:", "ptmx:[", PTY_SLAVE, "/dev/tty", "/"]
        ),
        st.text(),
    ),
)


@given(LINKS)
def test_the_predicates_say_what_the_prefix_tests_they_replaced_said(link: str) -> None:
    fd = FdTarget.parse(link)
    assert fd.is_pipe == link.startswith("pipe:")
    assert fd.is_socket == link.startswith("socket:")
    assert fd.is_anon_inode == link.startswith("anon_inode:")
    assert fd.is_pty_master == link.startswith("ptmx:[")
    assert fd.is_pty_slave == link.startswith(PTY_SLAVE)
    assert fd.connects == link.startswith(("pipe:", "socket:", PTY_SLAVE, "ptmx:["))
    assert fd.is_terminal == link.startswith((PTY_SLAVE, "/dev/tty", "/dev/ptmx", "ptmx:["))
    if fd.is_pty_slave:
        assert fd.other_pty_end == pty_master(link[len(PTY_SLAVE) :])
    if fd.is_pty_master:
        assert fd.other_pty_end == PTY_SLAVE + link[len("ptmx:[") : -1]
    if fd.is_anon_inode:
        assert ("eventfd" in fd.name) == ("eventfd" in link)
