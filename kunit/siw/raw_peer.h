/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A raw TCP peer for the oib_siw suites: a kernel socket of the test's, in the initial namespace,
 * that speaks MPA, DDP and RDMAP by hand (the frames built here from the RFCs' layouts, not from
 * the driver's code), so a suite can be a peer that oib_siw cannot tell from an RNIC, or a
 * broken one.  Every socket is released when the test ends; every receive gives up after
 * OIB_TEST_WAIT_MS.
 */
#ifndef SIWT_RAW_PEER_H
#define SIWT_RAW_PEER_H

#include <kunit/test.h>
#include <linux/net.h>
#include "oib_toolkit_cma.h"

#define SIWT_MPA_HDR	20	/* key, bits, private data length */
#define SIWT_MPA_C	0x4000	/* CRC */
#define SIWT_MPA_R	0x2000	/* reject */
#define SIWT_MPA_E	0x1000	/* enhanced (revision 2) */
#define SIWT_NO_IRD	-1	/* an MPA frame without the enhanced IRD/ORD words */
#define SIWT_SEND_HDR	20	/* FPDU length, DDP/RDMAP control, invalidate STag, QN, MSN, MO */

/* A connected socket to 10.0.0.@host:@port. */
struct socket *siwt_raw_dial(struct kunit *test, u8 host, u16 port);
/* A listening socket on 10.0.0.@host:@port, and the next connection it accepts. */
struct socket *siwt_raw_listen(struct kunit *test, u8 host, u16 port);
struct socket *siwt_raw_accept(struct kunit *test, struct socket *l);
/* Release it before the test ends (a reset if data is unread, else a close). */
void siwt_raw_release(struct kunit *test, struct socket *sock);

int siwt_raw_send(struct socket *sock, const void *buf, size_t len);
/* Exactly @len bytes: 0, or -errno (the peer closed, the wait ended). */
int siwt_raw_recv(struct socket *sock, void *buf, size_t len);

/*
 * An MPA frame into @buf: request or reply, the flag @bits with revision @rev, then the IRD/ORD
 * words (unless @ird is SIWT_NO_IRD) and @pd_len bytes of 0x5a.  Returns its length.
 */
size_t siwt_mpa_frame(u8 *buf, bool reply, u16 bits, u8 rev, int ird, int ord, u8 pd_len);
/* Read an MPA frame (header and private data) into @buf (SIWT_MPA_HDR + 256): its length. */
int siwt_mpa_read(struct kunit *test, struct socket *sock, u8 *buf);
/* The IRD or ORD word of an enhanced frame in @buf. */
u16 siwt_mpa_word(const u8 *buf, int which);

/*
 * An untagged SEND FPDU (last, QN 0, @msn) carrying @len bytes of @fill into @buf, padded, with
 * its CRC32c if @crc (else zero).  Returns its length.
 */
size_t siwt_send_fpdu(u8 *buf, u32 msn, u8 fill, u16 len, bool crc);

/* ---- The peer of an oib_siw end (oib_toolkit_siw.h's devices) ---- */

#define SIWT_RAW_PORT	(CMAT_PORT + 10)	/* the raw peer's listener, on 10.0.0.2 */

struct siwt_raw {
	struct cmat_ctx *ctx;
	struct socket *sock;
	struct cmat_rec *rec;		/* our end */
	struct cmat_rec *l;		/* b's listener, when the raw peer initiates */
	int n;				/* the connections it spawned */
	u8 frame[SIWT_MPA_HDR + 256];	/* the MPA frame we sent */
	int frame_len;
};

/* b's listener on 10.0.0.2, accepting with @our_ird/@our_ord and 7 bytes of private data. */
void siwt_raw_listener(struct kunit *test, struct siwt_raw *r, u8 our_ird, u8 our_ord);
/* A connection of the raw peer's to it: its request as below. */
void siwt_raw_request(struct kunit *test, struct siwt_raw *r, u16 bits, u8 rev, int ird, int ord,
		      u8 pd_len);
/*
 * The raw peer initiates: b's listener (10.0.0.2) accepts with @our_ird/@our_ord and 7 bytes of
 * private data; the peer's request has @bits, revision @rev, @ird/@ord (or SIWT_NO_IRD) and
 * @pd_len bytes.  Returns with @r->rec ESTABLISHED and the reply in @r->frame.
 */
void siwt_raw_initiates(struct kunit *test, struct siwt_raw *r, u16 bits, u8 rev, int ird,
			int ord, u8 pd_len, u8 our_ird, u8 our_ord);
/* The raw peer responds: a connects to it (9 bytes of private data); its reply as above. */
void siwt_raw_responds(struct kunit *test, struct siwt_raw *r, u16 bits, u8 rev, int ird,
		       int ord, u8 pd_len, u8 our_ird, u8 our_ord);
/* The flags and revision of the frame we sent. */
u16 siwt_bits(const struct siwt_raw *r);

#endif /* SIWT_RAW_PEER_H */
