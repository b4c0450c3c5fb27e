"""Job-side helper for training jobs run by a Quanta node connector.

Standard library only; Python 3.8+. Import it at the top of the training script (the SIGUSR1 handler is installed
on import, so a suspend request that comes early is not fatal).

The contract with the node connector (see docs/node-connector.md):

* ``CUDA_VISIBLE_DEVICES`` holds the GPUs the job may use.
* ``QUANTA_CHECKPOINT_DIR`` is where checkpoints live. A checkpoint is complete when the marker file
  ``quanta-checkpoint.json`` exists in it; write every other file first, the marker last, atomically.
  ``QUANTA_RESUME=1`` when the directory held a checkpoint at start.
* ``QUANTA_TELEMETRY`` (``udp://127.0.0.1:PORT``) receives progress reports, one JSON object per line:
  ``{"job": "j1", "attempt": 1, "minibatches": 3, "done": 1203, "memory_mib": 1234}``.
* SIGUSR1 asks the job to checkpoint at its next minibatch boundary and exit with status 0. If it has not exited
  by the connector's deadline it receives SIGTERM, then SIGKILL, and the attempt counts as failed.

Typical loop::

    import quanta_job as qj
    state = qj.load_checkpoint() or {"step": 0}
    for step in range(state["step"], total_steps):
        train_one_minibatch()
        qj.report_minibatch()
        if qj.checkpoint_requested():
            qj.save_checkpoint({"step": step + 1})
            qj.exit_suspended()
"""

import atexit
import json
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

MARKER = "quanta-checkpoint.json"
"""Name of the marker file that makes a checkpoint complete."""

_REPORT_INTERVAL_S = float(os.environ.get("QUANTA_TELEMETRY_INTERVAL_S", "0.2"))

_lock = threading.Lock()
_requested = threading.Event()
_callbacks = []
_done = 0
_unreported = 0
_last_sent = 0.0
_memory_mib = None
_socket = None
_address = None


def job_id():
    """The job id given by the connector, or ``"local"`` when run by hand."""
    return os.environ.get("QUANTA_JOB_ID", "local")


def attempt():
    """The attempt number given by the connector, or 0 when run by hand."""
    return int(os.environ.get("QUANTA_ATTEMPT", "0"))


def checkpoint_dir():
    """The checkpoint directory (``QUANTA_CHECKPOINT_DIR``, else ``./checkpoint``), created if missing."""
    path = Path(os.environ.get("QUANTA_CHECKPOINT_DIR", "checkpoint"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def checkpoint_requested():
    """Whether the connector asked for a checkpoint (SIGUSR1). Check it at every minibatch boundary."""
    return _requested.is_set()


def on_checkpoint_request(callback):
    """Calls ``callback()`` (from the signal handler, keep it short: e.g. set a flag) when a checkpoint is asked."""
    _callbacks.append(callback)


def _on_sigusr1(signum, frame):
    _requested.set()
    for callback in list(_callbacks):
        callback()


def install_signal_handler():
    """Installs the SIGUSR1 handler; done on import when imported from the main thread."""
    signal.signal(signal.SIGUSR1, _on_sigusr1)


def _endpoint():
    global _socket, _address
    if _socket is None:
        url = os.environ.get("QUANTA_TELEMETRY", "")
        if not url.startswith("udp://"):
            return None
        host, _, port = url[len("udp://"):].rpartition(":")
        _address = (host or "127.0.0.1", int(port))
        _socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    return _socket


def _send(force=False):
    global _unreported, _last_sent
    now = time.monotonic()
    if not force and now - _last_sent < _REPORT_INTERVAL_S:
        return
    sock = _endpoint()
    if sock is None or (_unreported == 0 and not force):
        _unreported = 0
        return
    report = {"job": job_id(), "attempt": attempt(), "minibatches": _unreported, "done": _done}
    if _memory_mib is not None:
        report["memory_mib"] = int(_memory_mib)
    try:
        sock.sendto((json.dumps(report) + "\n").encode("utf-8"), _address)
    except OSError:
        pass  # telemetry is best effort: never fail training because the connector is away
    _unreported = 0
    _last_sent = now


def report_minibatch(n=1, memory_mib=None):
    """Counts ``n`` finished minibatches (and the GPU memory in use, if known); reports them every 0.2 s."""
    global _done, _unreported, _memory_mib
    if n < 0:
        raise ValueError("n must be >= 0, got %r" % (n,))
    with _lock:
        _done += n
        _unreported += n
        if memory_mib is not None:
            _memory_mib = memory_mib
        _send()


def flush():
    """Sends the minibatches not reported yet; called at exit and when saving a checkpoint."""
    with _lock:
        if _unreported:
            _send(force=True)


def minibatches_done():
    """Minibatches done by the job so far, including those before a resume."""
    return _done


def set_minibatches_done(total):
    """Sets the job's total (e.g. after resuming from a checkpoint without this helper's state)."""
    global _done
    with _lock:
        _done = int(total)


def atomic_write(path, data):
    """Writes ``data`` (bytes or str) to ``path`` so that readers see the old or the new file, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name("." + path.name + ".tmp")
    mode = "wb" if isinstance(data, (bytes, bytearray)) else "w"
    with open(tmp, mode) as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def save_checkpoint(state, files=None):
    """Saves a checkpoint: each ``files`` entry (name -> bytes), then the marker with ``state`` (JSON-able), last.

    Returns the checkpoint directory. For large framework checkpoints, write them yourself into
    ``checkpoint_dir()`` (e.g. with ``atomic_write`` or ``torch.save`` to a temporary name, then ``os.replace``)
    and call ``save_checkpoint`` afterwards to write the marker.
    """
    directory = checkpoint_dir()
    for name, data in (files or {}).items():
        atomic_write(directory / name, data)
    marker = {"state": state, "minibatches_done": _done, "job": job_id(), "attempt": attempt(),
              "saved_at": time.time()}
    atomic_write(directory / MARKER, json.dumps(marker))
    flush()
    return directory


def load_checkpoint():
    """The ``state`` of the last complete checkpoint, or None; also restores the minibatch total."""
    marker = checkpoint_dir() / MARKER
    if not marker.is_file():
        return None
    with open(marker) as f:
        saved = json.load(f)
    set_minibatches_done(saved.get("minibatches_done", 0))
    return saved.get("state")


def exit_suspended():
    """Ends the process after a requested checkpoint (status 0; the connector sees the fresh marker)."""
    flush()
    sys.exit(0)


atexit.register(flush)
if threading.current_thread() is threading.main_thread():
    install_signal_handler()
