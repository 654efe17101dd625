/*
 * winzone.c - the zone names perfmon writes in a PDH-CSV header, mapped
 * to the zone database (import.h import_windows_zone).
 *
 * The header "(PDH-CSV 4.0) (W. Europe Standard Time)(-60)" gives the
 * bias at the start of the log only: a log that runs through a change of
 * summer time keeps writing local time, an hour off the bias after it.
 * With the zone's rules (tzdata) each row is placed where it was. The
 * name is the zone's StandardName, or its DaylightName when the log
 * began in summer time ("W. Europe Daylight Time"); each maps as its
 * standard name does. The table is CLDR's windowsZones.xml, territory
 * "001" (the zone Windows means by the name), for the zones a backup
 * server is likely in; a name not here (another zone, or a Windows in
 * another language, which writes its names translated) is read with the
 * bias alone, with a note (perfmon.c).
 */
#define _GNU_SOURCE
#include "import.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *windows, *iana;
} zones[] = {
	{ "Coordinated Universal Time", "UTC" },
	{ "UTC", "UTC" },
	{ "GMT Standard Time", "Europe/London" },
	{ "Greenwich Standard Time", "Atlantic/Reykjavik" },
	{ "W. Europe Standard Time", "Europe/Berlin" },
	{ "Central Europe Standard Time", "Europe/Budapest" },
	{ "Central European Standard Time", "Europe/Warsaw" },
	{ "Romance Standard Time", "Europe/Paris" },
	{ "GTB Standard Time", "Europe/Bucharest" },
	{ "FLE Standard Time", "Europe/Helsinki" },
	{ "E. Europe Standard Time", "Europe/Chisinau" },
	{ "Russian Standard Time", "Europe/Moscow" },
	{ "Turkey Standard Time", "Europe/Istanbul" },
	{ "Israel Standard Time", "Asia/Jerusalem" },
	{ "South Africa Standard Time", "Africa/Johannesburg" },
	{ "Egypt Standard Time", "Africa/Cairo" },
	{ "W. Central Africa Standard Time", "Africa/Lagos" },
	{ "E. Africa Standard Time", "Africa/Nairobi" },
	{ "Arab Standard Time", "Asia/Riyadh" },
	{ "Arabian Standard Time", "Asia/Dubai" },
	{ "Iran Standard Time", "Asia/Tehran" },
	{ "Pakistan Standard Time", "Asia/Karachi" },
	{ "India Standard Time", "Asia/Kolkata" },
	{ "SE Asia Standard Time", "Asia/Bangkok" },
	{ "China Standard Time", "Asia/Shanghai" },
	{ "Singapore Standard Time", "Asia/Singapore" },
	{ "Taipei Standard Time", "Asia/Taipei" },
	{ "Tokyo Standard Time", "Asia/Tokyo" },
	{ "Korea Standard Time", "Asia/Seoul" },
	{ "W. Australia Standard Time", "Australia/Perth" },
	{ "Cen. Australia Standard Time", "Australia/Adelaide" },
	{ "E. Australia Standard Time", "Australia/Brisbane" },
	{ "AUS Eastern Standard Time", "Australia/Sydney" },
	{ "New Zealand Standard Time", "Pacific/Auckland" },
	{ "Hawaiian Standard Time", "Pacific/Honolulu" },
	{ "Alaskan Standard Time", "America/Anchorage" },
	{ "Pacific Standard Time", "America/Los_Angeles" },
	{ "US Mountain Standard Time", "America/Phoenix" },
	{ "Mountain Standard Time", "America/Denver" },
	{ "Central Standard Time", "America/Chicago" },
	{ "Canada Central Standard Time", "America/Regina" },
	{ "Central Standard Time (Mexico)", "America/Mexico_City" },
	{ "Eastern Standard Time", "America/New_York" },
	{ "SA Pacific Standard Time", "America/Bogota" },
	{ "Atlantic Standard Time", "America/Halifax" },
	{ "Newfoundland Standard Time", "America/St_Johns" },
	{ "Pacific SA Standard Time", "America/Santiago" },
	{ "E. South America Standard Time", "America/Sao_Paulo" },
	{ "Argentina Standard Time", "America/Argentina/Buenos_Aires" },
};

const char *import_windows_zone(const char *name)
{
	char std[96];
	const char *d = strstr(name, " Daylight Time");

	if (d && strlen(name) < sizeof(std) - 4) {
		/* "X Daylight Time (Mexico)" too: the rest kept */
		snprintf(std, sizeof(std), "%.*s Standard Time%s",
			 (int)(d - name), name, d + strlen(" Daylight Time"));
		name = std;
	}
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		if (!strcasecmp(zones[i].windows, name))
			return zones[i].iana;
	return NULL;
}
