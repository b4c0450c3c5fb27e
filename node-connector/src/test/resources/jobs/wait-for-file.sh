# Waits until the file $1 exists, then exits with status $2.
while [ ! -f "$1" ]; do
  sleep 0.05
done
exit "$2"
