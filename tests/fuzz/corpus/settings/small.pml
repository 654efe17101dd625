[log]
interval = 1
retention = 3h
name = x
[counters]
\\host\Processor(0)\% User Time
\LogicalDisk(*)\Disk Reads/sec
