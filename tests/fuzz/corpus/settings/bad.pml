[log]
interval = 99999999999999999999
[bogus]
foo
