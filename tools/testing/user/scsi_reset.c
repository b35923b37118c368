// SPDX-License-Identifier: GPL-2.0-only
/*
 * scsi_reset: has the SCSI midlayer reset a disk's logical unit (the SG_SCSI_RESET ioctl, as
 * sg3_utils' sg_reset does), which its host carries out with its device reset handler: an SRP
 * initiator sends a LUN RESET task management request.  The guest has no sg3_utils.
 * Usage: scsi_reset /dev/sdX.  Exit status 0 when the reset succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#ifndef SG_SCSI_RESET_NO_ESCALATE	/* the kernel's, newer than glibc's header */
#define SG_SCSI_RESET_NO_ESCALATE	0x100
#endif

int main(int argc, char **argv)
{
	int fd, what = SG_SCSI_RESET_DEVICE | SG_SCSI_RESET_NO_ESCALATE;

	if (argc != 2) {
		fprintf(stderr, "usage: scsi_reset /dev/sdX\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);	/* a mounted disk opens for reading */
	if (fd < 0) {
		fprintf(stderr, "scsi_reset: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (ioctl(fd, SG_SCSI_RESET, &what)) {
		fprintf(stderr, "scsi_reset: %s: %s\n", argv[1], strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
