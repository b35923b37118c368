// SPDX-License-Identifier: GPL-2.0-only
/* MPA request and reply frames (RFC 5044 section 7, RFC 6581), and the FPDU CRC. */
#include <linux/crc32.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "siw_wire.h"

static u16 siw_mpa_v2_ird(const struct siw_mpa_params *p)
{
	return (p->ird & SIW_MPA_V2_VALUE) | (p->p2p ? SIW_MPA_V2_P2P : 0) |
	       (p->rtr & SIW_RTR_SEND ? SIW_MPA_V2_SEND_RTR : 0);
}

static u16 siw_mpa_v2_ord(const struct siw_mpa_params *p)
{
	return (p->ord & SIW_MPA_V2_VALUE) | (p->rtr & SIW_RTR_WRITE ? SIW_MPA_V2_WRITE_RTR : 0) |
	       (p->rtr & SIW_RTR_READ ? SIW_MPA_V2_READ_RTR : 0);
}

int siw_mpa_build(void *buf, bool reply, const struct siw_mpa_params *p, const void *pd,
		  u32 pd_len)
{
	struct siw_mpa_hdr *h = buf;
	u32 words = p->enhanced ? sizeof(struct siw_mpa_v2) : 0;
	u16 bits = p->rev;

	if (pd_len + words > SIW_MPA_PD_MAX || (p->enhanced && p->rev != 2) || !p->rev ||
	    p->rev > 2)
		return -EINVAL;
	memcpy(h->key, reply ? SIW_MPA_KEY_REP : SIW_MPA_KEY_REQ, SIW_MPA_KEY_LEN);
	bits |= (p->markers ? SIW_MPA_M : 0) | (p->crc ? SIW_MPA_C : 0) |
		(p->reject && reply ? SIW_MPA_R : 0) | (p->enhanced ? SIW_MPA_E : 0);
	h->bits = cpu_to_be16(bits);
	h->pd_len = cpu_to_be16(pd_len + words);
	if (p->enhanced) {
		struct siw_mpa_v2 *v2 = (void *)(h + 1);

		v2->ird = cpu_to_be16(siw_mpa_v2_ird(p));
		v2->ord = cpu_to_be16(siw_mpa_v2_ord(p));
	}
	if (pd_len)
		memcpy((u8 *)(h + 1) + words, pd, pd_len);
	return sizeof(*h) + words + pd_len;
}

int siw_mpa_hdr_check(const struct siw_mpa_hdr *h, bool reply)
{
	u16 len = be16_to_cpu(h->pd_len);

	if (memcmp(h->key, reply ? SIW_MPA_KEY_REP : SIW_MPA_KEY_REQ, SIW_MPA_KEY_LEN) ||
	    len > SIW_MPA_PD_MAX)
		return -EPROTO;
	return len;
}

int siw_mpa_parse(const void *frame, u32 len, bool reply, struct siw_mpa_params *p,
		  const u8 **pd, u32 *pd_len)
{
	const struct siw_mpa_hdr *h = frame;
	int n;
	u16 bits;

	if (len < sizeof(*h))
		return -EPROTO;
	n = siw_mpa_hdr_check(h, reply);
	if (n < 0 || len != sizeof(*h) + n)
		return -EPROTO;
	bits = be16_to_cpu(h->bits);
	memset(p, 0, sizeof(*p));
	p->rev = bits & SIW_MPA_REV_MASK;
	p->markers = bits & SIW_MPA_M;
	p->crc = bits & SIW_MPA_C;
	p->reject = reply && (bits & SIW_MPA_R);
	p->enhanced = p->rev == 2 && (bits & SIW_MPA_E);
	if (!p->rev || p->rev > 2)
		return -EPROTO;
	*pd = (const u8 *)(h + 1);
	*pd_len = n;
	if (p->enhanced) {
		const struct siw_mpa_v2 *v2 = (const void *)(h + 1);
		u16 ird, ord;

		if (n < sizeof(*v2))
			return -EPROTO;
		ird = be16_to_cpu(v2->ird);
		ord = be16_to_cpu(v2->ord);
		p->ird = ird & SIW_MPA_V2_VALUE;
		p->ord = ord & SIW_MPA_V2_VALUE;
		p->p2p = ird & SIW_MPA_V2_P2P;
		p->rtr = (ird & SIW_MPA_V2_SEND_RTR ? SIW_RTR_SEND : 0) |
			 (ord & SIW_MPA_V2_WRITE_RTR ? SIW_RTR_WRITE : 0) |
			 (ord & SIW_MPA_V2_READ_RTR ? SIW_RTR_READ : 0);
		*pd += sizeof(*v2);
		*pd_len -= sizeof(*v2);
	}
	return 0;
}

/*
 * CRC32c as iSCSI and MPA use it: seeded with ones, inverted, sent least significant first.
 * The library's own (vmlinux), not libcrc32c: no module dependency for a CRC that is mostly off.
 */
__le32 siw_fpdu_crc(const void *buf, u32 len)
{
	return cpu_to_le32(~__crc32c_le(~0U, buf, len));
}
