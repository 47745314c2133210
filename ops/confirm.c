/*
 * The confirmation flags of dangerous options, and the refusal of an
 * option the disk at hand has no command for.  Both print before anything
 * is sent.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nvme_tunnel.h"
#include "report.h"

static int confirm(struct device *dev, bool given, const char *opt, const char *danger, const char *explanation,
		   const char *flag_text)
{
	if (given)
		return 0;
	dev->refused = true;
	complain("Use of %s is %s.\n%s\n%s\nProgram aborted.\n", opt, danger, explanation, flag_text);
	return EPERM;
}

int confirm_dangerous(struct device *dev, const struct settings *s, const char *opt, const char *explanation)
{
	return confirm(dev, s->v[OPT_YES_I_KNOW].given, opt, "VERY DANGEROUS", explanation,
		       "Please supply the --yes-i-know-what-i-am-doing flag if you really want this.");
}

int confirm_destructive(struct device *dev, const struct settings *s, const char *opt, const char *explanation)
{
	return confirm(dev, s->v[OPT_PLEASE_DESTROY].given, opt, "EXTREMELY DANGEROUS", explanation,
		       "Please also supply the --please-destroy-my-drive flag if you really want this.");
}

int refuse_on_this_disk(const struct device *dev, const char *option)
{
	/* A SCSI disk is refused by its path: the user may not know the bridge has no SAT. */
	if (dev->disk && dev->disk->no_ata) {
		complain(" %s %s: %s needs an ATA drive\n", dev->path, dev->disk->no_ata, option);
		/* A SAT layer that answered with nothing: said as the bridge's limit, not as a drive without ATA. */
		if (dev->bridge_nothing[0])
			complain(" %s is behind the USB bridge %s, which answered %s: the bridge's limit, not the drive's\n",
				 dev->path, dev->usb_id[0] ? dev->usb_id : "(its ID unread)", dev->bridge_nothing);
		if (dev->usb_driver && strcmp(dev->usb_driver, "uas") == 0 && dev->usb_id[0])
			complain(" %s is behind the uas driver: some USB bridges pass ATA commands only under usb-storage"
				 " (boot with usb-storage.quirks=%s:u to use it for this enclosure)\n",
				 dev->path, dev->usb_id);
	} else
		complain(" %s: not supported on %s devices\n", option, dev->disk ? dev->disk->kind : "these");
	return EOPNOTSUPP;
}

int refuse_missing_command(const struct device *dev, const char *option)
{
	complain(" %s: not supported on %s devices\n", option, dev->disk ? dev->disk->kind : "these");
	return EOPNOTSUPP;
}

int refuse_power_option(struct device *dev, const char *option)
{
	char how[400];

	if (!dev->disk || !dev->disk->power_managed)
		return refuse_missing_command(dev, option);
	dev->disk->power_managed(dev, how, sizeof(how));
	complain(" %s: not supported on %s devices: %s\n", option, dev->disk->kind, how);
	return EOPNOTSUPP;
}

void say_erase_choices(struct device *dev)
{
	char text[400] = "";

	if (dev->disk && dev->disk->erase_choices)
		dev->disk->erase_choices(dev, text, sizeof(text));
	if (text[0])
		complain(" %s\n", text);
}

void say_bridge_advice(const struct device *dev, const char *command, const char *instead)
{
	char quirk[120] = "";

	/* ATA commands the bridge did not pass: only where the disk is taken for ATA. */
	if (!dev->usb_driver || !dev->disk || !dev->disk->identify_page)
		return;
	if (strcmp(dev->usb_driver, "uas") == 0 && dev->usb_id[0])
		snprintf(quirk, sizeof(quirk), "; or boot with usb-storage.quirks=%s:u, under which some bridges pass ATA commands",
			 dev->usb_id);
	complain(" %s is behind the USB bridge %s (%s), which did not pass %s: %s%s\n", dev->path,
		 dev->usb_id[0] ? dev->usb_id : "(its ID unread)", dev->usb_driver, command, instead, quirk);
}

int refuse_through_tunnel(struct device *dev, const struct settings *s)
{
	/* What the tunnels do not pass reliably, and what writes a drive's firmware or locking: none carries it. */
	static const enum opt_id not_carried[] = {
		OPT_FORMAT_ERASE, OPT_SET_SECTOR_SIZE, OPT_SANITIZE_BLOCK_ERASE, OPT_SANITIZE_CRYPTO,
		OPT_SANITIZE_OVERWRITE, OPT_SANITIZE_EXIT_FAILURE, OPT_FWDOWNLOAD, OPT_FWDOWNLOAD_MODE3,
		OPT_FWDOWNLOAD_MODE3_MAX, OPT_FWDOWNLOAD_MODE7, OPT_FWDOWNLOAD_MODEE, OPT_FWDOWNLOAD_MODEE_MAX,
		OPT_TCG, OPT_TCG_PSID_REVERT,
	};
	char name[192];

	if (!nvme_tunnel_is(dev))
		return 0;
	for (size_t i = 0; i < sizeof(not_carried) / sizeof(not_carried[0]); i++) {
		if (!s->v[not_carried[i]].given)
			continue;
		dev->refused = true;
		report_operation(s->v[not_carried[i]].name);	/* --json's error names the option, not the open */
		complain("%s: %s: not sent: %s passes NVMe Identify, Get Log Page %s: connect the drive to an NVMe"
			 " port for it\n", dev->path, s->v[not_carried[i]].name, nvme_tunnel_name(dev, name, sizeof(name)),
			 dev->bridge == BRIDGE_SNTJMICRON ? "and Get Features alone" : "and nothing else");
		return EOPNOTSUPP;
	}
	return 0;
}
