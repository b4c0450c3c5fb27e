# Starts a daemon the classic way (double fork: it is re-parented away from the job, and it leaves the job's session
# and process group); $1 is a unique number its sleep carries. Then either runs until killed ($2 = wait) or exits at
# once ($2 = exit).
( setsid sh -c "sleep $1" < /dev/null > /dev/null 2>&1 & )
if [ "$2" = "wait" ]; then
  while true; do sleep 0.05; done
fi
exit 0
