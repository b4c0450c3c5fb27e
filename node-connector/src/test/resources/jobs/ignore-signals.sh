# A job that ignores the checkpoint request and SIGTERM: only SIGKILL stops it.
trap '' USR1 TERM
echo "ignoring SIGUSR1 and SIGTERM" >&2
while :; do
  sleep 0.05
done
