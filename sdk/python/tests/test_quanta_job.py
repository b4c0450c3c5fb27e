"""Unit tests of quanta_job (standard library only): python3 -m unittest discover -s sdk/python/tests"""

import json
import os
import signal
import socket
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import quanta_job as qj  # noqa: E402


class QuantaJobTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.receiver.bind(("127.0.0.1", 0))
        self.receiver.settimeout(5)
        self.env = {
            "QUANTA_CHECKPOINT_DIR": os.path.join(self.tmp.name, "ckpt"),
            "QUANTA_TELEMETRY": "udp://127.0.0.1:%d" % self.receiver.getsockname()[1],
            "QUANTA_JOB_ID": "j1",
            "QUANTA_ATTEMPT": "2",
        }
        self.saved_env = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)
        if qj._socket is not None:
            qj._socket.close()
        qj._socket = None
        qj._callbacks.clear()
        qj._requested.clear()
        qj.set_minibatches_done(0)

    def tearDown(self):
        for key, value in self.saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self.receiver.close()
        if qj._socket is not None:
            qj._socket.close()
            qj._socket = None
        self.tmp.cleanup()

    def test_should_return_none_when_there_is_no_checkpoint(self):
        self.assertIsNone(qj.load_checkpoint())

    def test_should_restore_state_and_total_when_a_checkpoint_was_saved(self):
        qj.report_minibatch(7)
        qj.save_checkpoint({"step": 7}, files={"weights.bin": b"\x01\x02"})
        qj.set_minibatches_done(0)

        self.assertEqual(qj.load_checkpoint(), {"step": 7})
        self.assertEqual(qj.minibatches_done(), 7)
        directory = Path(self.env["QUANTA_CHECKPOINT_DIR"])
        self.assertEqual((directory / "weights.bin").read_bytes(), b"\x01\x02")
        self.assertEqual(json.loads((directory / qj.MARKER).read_text())["attempt"], 2)
        self.assertEqual([p.name for p in directory.iterdir() if p.name.endswith(".tmp")], [])

    def test_should_send_reports_with_job_attempt_and_total(self):
        qj.report_minibatch(3, memory_mib=512)
        qj.flush()

        report = json.loads(self.receiver.recv(65536).decode("utf-8").strip())
        self.assertEqual(report["job"], "j1")
        self.assertEqual(report["attempt"], 2)
        self.assertEqual(report["done"], 3)
        self.assertEqual(report["memory_mib"], 512)
        self.assertGreaterEqual(report["minibatches"], 1)

    def test_should_set_the_flag_and_call_back_when_sigusr1_arrives(self):
        calls = []
        qj.on_checkpoint_request(lambda: calls.append(1))

        os.kill(os.getpid(), signal.SIGUSR1)

        self.assertTrue(qj.checkpoint_requested())
        self.assertEqual(calls, [1])

    def test_should_reject_a_negative_count(self):
        with self.assertRaises(ValueError):
            qj.report_minibatch(-1)


if __name__ == "__main__":
    unittest.main()
