/*
 * --metrics' text: label values of any bytes (a drive's model, serial and
 * firmware strings are what it sends), rendered as the exposition format.
 * Every byte of the text must be printable ASCII or a newline, and every
 * label value must close where its quote does: what promtool and
 * node_exporter read must parse whatever a drive says.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"

/* A label value from its opening quote: escapes are \\, \" and \n only; the end is an unescaped quote. */
static const char *value_end(const char *p)
{
	for (; *p && *p != '"'; p++)
		if (*p == '\\' && (p[1] == '\\' || p[1] == '"' || p[1] == 'n'))
			p++;
		else if (*p == '\\' || *p == '\n')
			abort();
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *half;
	struct prom *p = prom_new();
	size_t len = 0;
	char *text;

	if (!copy || !p) {
		free(copy);
		prom_free(p);
		return 0;
	}
	memcpy(copy, data, size);
	copy[size] = '\0';
	/* Two values: the bytes before the first NUL and those after it. */
	half = copy + strlen(copy) + (strlen(copy) < size);
	prom_gauge(p, "hdparm_disk_info", "help", 1, "device", "sda", "model", copy, "serial", half, (const char *)NULL);
	prom_counter(p, "hdparm_idle_wakeups_by_process_total", "help", 2, "process", half, (const char *)NULL);
	text = prom_render(p, &len);
	if (text) {
		if (strlen(text) != len)
			abort();
		for (size_t i = 0; i < len; i++)
			if ((text[i] < 0x20 || text[i] > 0x7e) && text[i] != '\n')
				abort();
		for (const char *q = strstr(text, "=\""); q; q = strstr(q, "=\"")) {
			q = value_end(q + 2);
			if (*q != '"' || (q[1] != ',' && q[1] != '}'))
				abort();
		}
	}
	free(text);
	free(copy);
	prom_free(p);
	return 0;
}
