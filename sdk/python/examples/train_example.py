#!/usr/bin/env python3
"""Example training job for Quanta: runs with or without PyTorch.

Without PyTorch each "minibatch" is a busy loop of --step-ms milliseconds (or a sleep with --idle); with PyTorch
it trains a tiny linear model on random data (on the GPUs of CUDA_VISIBLE_DEVICES when there are any). Either way it
reports every minibatch, checkpoints its step count when the connector asks (SIGUSR1) and resumes from the
checkpoint. Exits 0 when --steps are done, or with --fail-code at step --fail-at.

    python3 train_example.py --steps 1000 --step-ms 20
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import quanta_job as qj  # noqa: E402  (installs the SIGUSR1 handler early)

try:
    import torch  # noqa: F401
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False


def busy_minibatch(step_ms, idle):
    if idle:
        time.sleep(step_ms / 1000.0)
        return
    deadline = time.perf_counter() + step_ms / 1000.0
    x = 0
    while time.perf_counter() < deadline:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF


class TorchTrainer:
    def __init__(self):
        import torch
        self.torch = torch
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = torch.nn.Linear(64, 1).to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01)

    def minibatch(self):
        torch = self.torch
        x = torch.randn(256, 64, device=self.device)
        y = x.sum(dim=1, keepdim=True)
        loss = torch.nn.functional.mse_loss(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def memory_mib(self):
        if self.device == "cuda":
            return int(self.torch.cuda.memory_allocated() / (1024 * 1024))
        return None

    def save(self, directory):
        tmp = directory / ".model.pt.tmp"
        self.torch.save(self.model.state_dict(), tmp)
        tmp.replace(directory / "model.pt")

    def load(self, directory):
        path = directory / "model.pt"
        if path.is_file():
            self.model.load_state_dict(self.torch.load(path, map_location=self.device))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=100, help="minibatches to train in total")
    parser.add_argument("--step-ms", type=float, default=50.0, help="duration of one busy-loop minibatch")
    parser.add_argument("--idle", action="store_true", help="sleep instead of spinning (busy-loop mode)")
    parser.add_argument("--fail-at", type=int, default=None, help="fail when reaching this step")
    parser.add_argument("--fail-code", type=int, default=3, help="exit status when failing")
    parser.add_argument("--checkpoint-every", type=int, default=0, help="also checkpoint every N steps (0: never)")
    parser.add_argument("--memory-mib", type=int, default=None, help="GPU memory to report (busy-loop mode)")
    parser.add_argument("--no-torch", action="store_true", help="use the busy loop even if PyTorch is installed")
    args = parser.parse_args()

    trainer = TorchTrainer() if HAVE_TORCH and not args.no_torch else None
    state = qj.load_checkpoint()
    start = state["step"] if state else 0
    if trainer is not None and state:
        trainer.load(qj.checkpoint_dir())
    print("job %s attempt %d: %s from step %d of %d (%s)" % (
        qj.job_id(), qj.attempt(), "resumed" if state else "starting", start, args.steps,
        "pytorch" if trainer else "busy loop"), flush=True)

    for step in range(start, args.steps):
        if args.fail_at is not None and step == args.fail_at:
            print("failing at step %d as asked (--fail-at)" % step, file=sys.stderr, flush=True)
            qj.flush()
            sys.exit(args.fail_code)
        if trainer is not None:
            trainer.minibatch()
            qj.report_minibatch(memory_mib=trainer.memory_mib())
        else:
            busy_minibatch(args.step_ms, args.idle)
            qj.report_minibatch(memory_mib=args.memory_mib)
        done = step + 1
        periodic = args.checkpoint_every > 0 and done % args.checkpoint_every == 0
        if qj.checkpoint_requested() or periodic:
            if trainer is not None:
                trainer.save(qj.checkpoint_dir())
            qj.save_checkpoint({"step": done})
            if qj.checkpoint_requested():
                print("checkpointed at step %d on request; exiting" % done, flush=True)
                qj.exit_suspended()

    print("done: %d steps" % args.steps, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
