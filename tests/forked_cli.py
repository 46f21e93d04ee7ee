"""Run the real ``texas42`` command many times without paying the interpreter's start
and the imports (about 0.3 s) each time.

One server process — a fresh interpreter, started with the test's environment, that
has done nothing but import the command and the package's modules — forks a child for
each run. The child
takes the run's standard input, output and error (passed over a Unix socket),
its working folder, environment and arguments, then calls the console entry point
``texas42_log.entry.main()``, which ends the process with the command's exit
status, exactly as the installed ``texas42`` does after its imports. Nothing of
the test process (pytest, its threads, other tests' state) is in the child.

Used where tests run the command hundreds of times (the hostile-input catalogue, the
command-line conventions, the docs' examples, analyze, bulk conversion). A run that
must start a new program — under ``setpriv`` without root's file capabilities, or a
signal sent at start-up — uses a plain subprocess instead.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVER = r"""
import json, os, socket, sys
import importlib, pkgutil
import texas42_log.entry  # the console entry point: its signal handling, then
import texas42_log.cli    # the command and everything it imports, once,
# and the modules a command imports when it runs (the formats' readers, the views, the
# analysis): each child would import them again. Not the research environments
# (envs/), whose dependencies no command loads.
for found in pkgutil.walk_packages(texas42_log.__path__, "texas42_log."):
    if not found.name.endswith("__main__") and not found.name.startswith("texas42_log.envs"):
        importlib.import_module(found.name)

channel = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET, fileno=int(sys.argv[1]))
while True:
    try:
        message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 3)
    except OSError:
        break
    if not message:
        break
    run = json.loads(message)
    pid = os.fork()
    if pid == 0:
        try:
            channel.close()
            os.setsid()
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
                os.close(fd)
            os.chdir(run["cwd"])
            os.environ.clear()
            os.environ.update(run["env"])
            sys.argv = ["texas42", *run["args"]]
            texas42_log.entry.main()
        finally:
            os._exit(70)
    for fd in fds:
        os.close(fd)
    channel.sendall(json.dumps({"pid": pid}).encode() + b"\n")
    _, status = os.waitpid(pid, 0)
    channel.sendall(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
"""


@dataclass
class Ran:
    returncode: int | None  # None: killed at the time limit
    stdout: bytes
    stderr: bytes


class ForkedCli:
    """The command, forked from one prepared process (see the module)."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)  # one message a run
        self._server = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._channel = ours
        self._replies = ours.makefile("rb")
        self._lock = threading.Lock()

    def _reply(self) -> dict[str, int]:
        line = self._replies.readline()
        if not line:
            raise RuntimeError(f"the fork server ended (status {self._server.poll()})")
        reply: dict[str, int] = json.loads(line)
        return reply

    def run(
        self,
        args: list[str],
        *,
        cwd: Path | str | None = None,
        env: dict[str, str] | None = None,
        stdin: str | bytes | None = None,
        timeout: float = 120.0,
        merge: bool = False,
    ) -> Ran:
        """``texas42 ARGS`` in ``cwd`` with ``env`` (default: this process's), standard input
        from the file named ``stdin``, or those bytes (default: /dev/null), killed after
        ``timeout`` seconds. ``merge``: standard error goes where standard output goes, in
        the order written (``stderr`` is then empty)."""
        with (
            self._lock,
            tempfile.TemporaryFile() as out,
            tempfile.TemporaryFile() as err,
            tempfile.TemporaryFile() as given_bytes,
        ):
            if isinstance(stdin, bytes):
                given_bytes.write(stdin)
                given_bytes.seek(0)
                given = os.dup(given_bytes.fileno())
            else:
                given = os.open(stdin or os.devnull, os.O_RDONLY)
            message = json.dumps(
                {
                    "args": args,
                    "cwd": str(cwd or os.getcwd()),
                    "env": dict(os.environ if env is None else env),
                }
            ).encode()
            try:
                socket.send_fds(
                    self._channel,
                    [message],
                    [given, out.fileno(), (out if merge else err).fileno()],
                )
            finally:
                os.close(given)
            pid = self._reply()["pid"]
            killed: list[int] = []
            timer = threading.Timer(timeout, lambda: killed.append(_kill_group(pid)))
            timer.start()
            try:
                status: int | None = self._reply()["status"]
            finally:
                timer.cancel()
            if killed:
                status = None
            out.seek(0)
            err.seek(0)
            return Ran(status, out.read(), err.read())


def _kill_group(pid: int) -> int:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return pid


def completed(
    args: list[str], *, text: bool = False, **given: Any
) -> subprocess.CompletedProcess[Any]:
    """:meth:`ForkedCli.run` as ``subprocess.run`` answers (status -9 when killed at the
    limit), its output decoded from UTF-8 with ``text``."""
    ran = forked_cli().run(args, **given)
    code = -signal.SIGKILL if ran.returncode is None else ran.returncode
    if text:
        return subprocess.CompletedProcess(
            args, code, ran.stdout.decode("utf-8"), ran.stderr.decode("utf-8")
        )
    return subprocess.CompletedProcess(args, code, ran.stdout, ran.stderr)


_SHARED: ForkedCli | None = None


def forked_cli() -> ForkedCli:
    """This process's fork server (started on first use, ended with the process)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = ForkedCli()
    return _SHARED
