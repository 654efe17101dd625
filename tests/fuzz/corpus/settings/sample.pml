# perftest.pml.sample - perflog counter-log settings
#
# The set the 1997 ADSM performance test kit logged with perfmon around a
# test backup (its perftest.pml): the Processor, Logical disk, Memory and
# Network Interface objects, plus System. The kit charted processor time,
# logical disk time, memory available and cache bytes, pages/sec and NIC
# bytes total/sec; logging whole objects keeps every other counter of them
# too (disk bytes/sec and service time, user/privileged/iowait time, ...),
# which `perflog report` needs to tell what held a backup back.
# Without -c, perflog uses exactly this set.
#
# Use:  perflog start -c perftest.pml    (or perflog run -c perftest.pml -- CMD)
# Check: perflog counters -c perftest.pml
#
# Syntax: '#' starts a comment (at the start of a line or after a space);
# [sections]; "key = value" in [log]; one counter path a line in [counters].

[log]
# Seconds between samples: a whole number, at least 1. The RRD step.
interval = 5

# Directory under which each log set is created as HOST-YYYYmmddTHHMMSS/
# (relative to where perflog is started). -o overrides it.
directory = ./logs

# Log set name instead of HOST-YYYYmmddTHHMMSS (a plain name, no '/').
# Empty = automatic.
name =

# How long the full-resolution archive reaches back (s, m, h, d, w). Older
# data is kept as 1-minute MIN/AVERAGE/MAX for 30 days and 1-hour for a
# year. RRD files are allocated whole, so this sets their size: at 5 s,
# 2 days is 34,560 rows a counter (about 270 KB for each counter).
retention = 2d

# Write through rrdcached instead of directly: unix:/path/to/sock or
# host:port. Empty = direct. $RRDCACHED_ADDRESS is used when this is empty.
rrdcached =

[counters]
# Object(Instance)\Counter, perfmon style; (*) = every instance (with
# _Total); \* = every counter of the object. `perflog counters` lists them.
# Objects without instances (Memory, System) take no parentheses.
\Processor(*)\*
\LogicalDisk(*)\*
\Memory\*
\Network Interface(*)\*
\System\*

# Single counters work too, for example the kit's chart set only:
#   \Processor(*)\% Processor Time
#   \LogicalDisk(*)\% Disk Time
#   \Memory\Available Bytes
#   \Memory\Cache Bytes
#   \Memory\Pages/sec
#   \Network Interface(*)\Bytes Total/sec
