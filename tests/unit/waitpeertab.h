/*
 * waitpeertab.h - a network namespace's tables as the kernel prints them
 * (little endian), for the far ends' tests: their parsers
 * (test_waitpeer_parse) and the resolver on a fake /proc that holds
 * them (test_waitpeer).
 *   tcp      127.0.0.1:40000 -> 127.0.0.1:5000 (7001) and its mirror
 *            (7002); 10.0.0.5:40001 -> 192.0.2.7:22, another host
 *            (7003); 10.0.0.5:40002 -> 10.0.0.5:873, its own address,
 *            no mirror (7004); a listener (7005)
 *   tcp6     [2001:db8::5]:40010 -> [2001:db8::9]:22 (7006)
 *   fib      10.0.0.5 and 127.0.0.1 local
 *   if6      ::1 on lo, 2001:db8::5 on eth0
 *   route    the default on eth0, 10.0.0.0/24 on eth0, 192.0.2.0/24 on
 *            veth9
 */
#ifndef PERFLOG_TEST_WAITPEERTAB_H
#define PERFLOG_TEST_WAITPEERTAB_H

static const char tcp[] =
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	/* 127.0.0.1:40000 -> 127.0.0.1:5000, and its mirror */
	"   0: 0100007F:9C40 0100007F:1388 01 00000000:00000000 00:00000000 00000000     0        0 7001 1 0000000000000000 20 4 30 10 -1\n"
	"   1: 0100007F:1388 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 7002 1 0000000000000000 20 4 30 10 -1\n"
	/* 10.0.0.5:40001 -> 192.0.2.7:22: another host */
	"   2: 0500000A:9C41 070200C0:0016 01 00000000:00000000 00:00000000 00000000     0        0 7003 1 0000000000000000 20 4 30 10 -1\n"
	/* 10.0.0.5:40002 -> 10.0.0.5:873: its own address, no mirror seen */
	"   3: 0500000A:9C42 0500000A:0369 01 00000000:00000000 00:00000000 00000000     0        0 7004 1 0000000000000000 20 4 30 10 -1\n"
	/* a listener: no far end */
	"   4: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7005 1 0000000000000000 100 0 0 10 0\n";
static const char tcp6[] =
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	/* [2001:db8::5]:40010 -> [2001:db8::9]:22 */
	"   0: B80D0120000000000000000005000000:9C4A B80D0120000000000000000009000000:0016 01 00000000:00000000 00:00000000 00000000     0        0 7006 1 0000000000000000 20 4 30 10 -1\n";
static const char fib[] =
	"Main:\n  +-- 0.0.0.0/0 3 0 5\n     |-- 0.0.0.0\n        /0 universe UNICAST\n"
	"     +-- 10.0.0.0/24 2 0 2\n        |-- 10.0.0.0\n           /24 link UNICAST\n"
	"        |-- 10.0.0.5\n           /32 host LOCAL\n"
	"     |-- 127.0.0.1\n        /32 host LOCAL\n"
	"Local:\n  +-- 0.0.0.0/0 3 0 5\n        |-- 10.0.0.5\n           /32 host LOCAL\n";
static const char if6[] =
	"00000000000000000000000000000001 01 80 10 80       lo\n"
	"20010db8000000000000000000000005 02 40 00 80     eth0\n";
static const char route[] =
	"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
	"eth0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
	"eth0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
	"veth9\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";

#endif
