# Writes the job's environment (NUL-separated) to $1.
env -0 > "$1"
