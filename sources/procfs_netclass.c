/*
 * procfs_netclass.c - what an interface is, for Network Interface(_Total)
 * (procfs_int.h). The rule, documented in counters/README.md, counts each
 * byte on the wire once: an interface counts unless it is
 *
 *   a loopback          lo, ARPHRD_LOOPBACK: traffic that never leaves
 *   stacked on another  it has lower_* links in sysfs: bridge (its ports
 *                       carry the bytes), bond and team (their slaves),
 *                       VLAN, macvlan, ipvlan, macsec, VRF, hsr ...
 *   carried by another  a virtual device (no sysfs "device" link) that is
 *                       a tunnel or a mirror: an L3 tunnel type (ipip,
 *                       sit, gre, ip6tnl, ppp, tun, wireguard, nlmon) or
 *                       an Ethernet-type tunnel or mirror known by its
 *                       sysfs DEVTYPE or driver name (vxlan, geneve,
 *                       gretap, erspan, bareudp, ifb, OVS internal ports)
 *
 * so bottom devices count: physical NICs (bond slaves and bridge ports
 * included), veth and tap devices (the wire to a container or a VM). The
 * driver's name comes from the SIOCETHTOOL ioctl, which sees the devices
 * of this process's network namespace: only when reading the live root.
 *
 * Stacking changes while logging (a NIC enslaved, a container's veth
 * joining docker0): reading the live root, an rtnetlink socket subscribed
 * to link events says when to classify every interface again (a recv that
 * finds nothing costs a microsecond); elsewhere procfs_net.c falls back to
 * classifying one interface per read in turn.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <dirent.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* ARPHRD_* of include/uapi/linux/if_arp.h */
#define T_LOOPBACK 772
static const long tunnel_types[] = {
	512,	/* PPP (PPPoE, L2TP, a modem: see README) */
	768,	/* TUNNEL: ipip */
	769,	/* TUNNEL6: ip6tnl, ip6_vti */
	776,	/* SIT */
	777,	/* IPDDP */
	778,	/* IPGRE */
	823,	/* IP6GRE */
	824,	/* NETLINK: nlmon, a mirror of netlink messages */
	65534,	/* NONE: tun (L3), wireguard */
	65535,	/* VOID */
};

/* DEVTYPE (uevent) or driver names of Ethernet-type devices whose bytes
 * another interface carries too. */
static const char *const carried_kinds[] = {
	"vxlan", "geneve", "gretap", "ip6gretap", "erspan", "ip6erspan",
	"bareudp", "wireguard", "l2tp_eth", "gtp", "ifb", "openvswitch",
};

static int in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

/* sys/class/net/IF/FILE as a number; -1 when missing or malformed. */
static long sysfs_long(const struct procfs *p, const char *name,
		       const char *file)
{
	char buf[32], *end;
	long v;

	if (procfs_read_path(p, "sys/class/net/", name, file, buf,
			     sizeof(buf)) < 0)
		return -1;
	v = strtol(buf, &end, 10);
	return (end == buf || v < 0) ? -1 : v;
}

/* DEVTYPE= of sys/class/net/IF/uevent into out ("" when none). */
static void sysfs_devtype(const struct procfs *p, const char *name,
			  char *out, size_t n)
{
	char buf[256], *d, *e;

	out[0] = '\0';
	if (procfs_read_path(p, "sys/class/net/", name, "uevent", buf,
			     sizeof(buf)) < 0)
		return;
	d = strstr(buf, "DEVTYPE=");
	if (!d || (d != buf && d[-1] != '\n'))
		return;
	d += 8;
	e = strchr(d, '\n');
	if (e)
		*e = '\0';
	util_strlcpy(out, d, n);
}

/* Whether the directory has lower_* entries, and a "device" link. */
static void sysfs_links(const struct procfs *p, const char *name,
			int *stacked, int *physical)
{
	char path[PROCFS_PATH_MAX];
	struct dirent *de;
	DIR *d;

	*stacked = *physical = 0;
	if (procfs_path(p, path, sizeof(path), "sys/class/net/", name,
			NULL) < 0 || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "lower_", 6) == 0)
			*stacked = 1;
		else if (strcmp(de->d_name, "device") == 0)
			*physical = 1;
	}
	closedir(d);
}

/* The driver's name by SIOCETHTOOL (as `ethtool -i`), "" when unknown. */
static void ethtool_driver(struct procfs *p, const char *name, char *out,
			   size_t n)
{
	struct ethtool_drvinfo di;
	struct ifreq r;

	out[0] = '\0';
	if (!p->live || strlen(name) >= IFNAMSIZ)
		return;
	if (p->sock < 0)
		p->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (p->sock < 0)	/* no IPv4: any socket reaches dev_ioctl */
		p->sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (p->sock < 0)
		return;
	memset(&di, 0, sizeof(di));
	memset(&r, 0, sizeof(r));
	di.cmd = ETHTOOL_GDRVINFO;
	memcpy(r.ifr_name, name, strlen(name) + 1);
	r.ifr_data = (void *)&di;
	if (ioctl(p->sock, SIOCETHTOOL, &r) == 0) {
		di.driver[sizeof(di.driver) - 1] = '\0';
		util_strlcpy(out, di.driver, n);
	}
}

void procfs_iface_classify(struct procfs *p, struct procfs_iface *f)
{
	char devtype[64], driver[64];
	int stacked, physical, carried;
	long type, ifindex;

	f->is_loopback = strcmp(f->name, "lo") == 0;
	f->in_total = !f->is_loopback;
	f->ifindex = 0;
	if (f->name[0] == '.' || strchr(f->name, '/'))
		return;
	type = sysfs_long(p, f->name, "type");
	ifindex = sysfs_long(p, f->name, "ifindex");
	if (ifindex > 0)
		f->ifindex = (uint64_t)ifindex;
	if (type == T_LOOPBACK)
		f->is_loopback = 1;
	sysfs_links(p, f->name, &stacked, &physical);
	carried = 0;
	if (!physical) {
		sysfs_devtype(p, f->name, devtype, sizeof(devtype));
		ethtool_driver(p, f->name, driver, sizeof(driver));
		carried = in_list(devtype, carried_kinds,
				  sizeof(carried_kinds) / sizeof(*carried_kinds)) ||
			  in_list(driver, carried_kinds,
				  sizeof(carried_kinds) / sizeof(*carried_kinds));
		for (size_t i = 0;
		     i < sizeof(tunnel_types) / sizeof(*tunnel_types); i++)
			if (type == tunnel_types[i])
				carried = 1;
	}
	f->in_total = !f->is_loopback && !stacked && !carried;
}

int procfs_links_changed(struct procfs *p)
{
	char buf[8192];
	int changed = 0;

	if (!p->live || p->nl == -2)
		return -1;
	if (p->nl < 0) {
		struct sockaddr_nl sa;

		memset(&sa, 0, sizeof(sa));
		sa.nl_family = AF_NETLINK;
		sa.nl_groups = RTMGRP_LINK;
		p->nl = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			       NETLINK_ROUTE);
		if (p->nl >= 0 &&
		    bind(p->nl, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			close(p->nl);
			p->nl = -1;
		}
		if (p->nl < 0) {
			p->nl = -2;
			p->speed_keep = 0;
			return -1;
		}
		p->speed_keep = PROCFS_SPEED_KEEP;
		return 0;
	}
	if (!p->nl_ready)	/* the read's poll found nothing to recv */
		return 0;
	for (;;) {
		ssize_t n = recv(p->nl, buf, sizeof(buf), 0);

		if (n > 0) {
			changed = 1;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* ENOBUFS: events were lost, so something changed */
		if (n < 0 && errno == ENOBUFS)
			changed = 1;
		break;
	}
	return changed;
}
