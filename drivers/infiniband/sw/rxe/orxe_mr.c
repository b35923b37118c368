// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions: oib_core's MRs of software providers and their key table (struct oib_sw_mr in
 * <oib/sw.h>: keys, registration, invalidation, resolving a key with the reference that keeps its
 * memory).  What is oib_rxe's: the verbs that name the device's table, and how the transport
 * copies through SGLs (a key resolved per SGE, per packet or per run, orxe_sge_memo).
 */
#include <linux/module.h>
#include "orxe.h"

int orxe_get_dma_mr(struct oib_mr *ibmr, int access)
{
	return oib_sw_mr_kernel(&to_rdev(ibmr->device)->mr_keys, oib_sw_mr(ibmr), access, 0);
}

/*
 * Kernel memory stays mapped, so a kernel MR needs its key and where iova lies in the kernel's
 * address space (@addr; iova is @addr itself unless the registrant named it otherwise, as a user
 * MR does).
 */
int orxe_reg_kernel_mr(struct oib_mr *ibmr, void *addr, size_t len, int access)
{
	return oib_sw_mr_kernel(&to_rdev(ibmr->device)->mr_keys, oib_sw_mr(ibmr), access,
				(u64)(uintptr_t)addr);
}

/* A fast-registration MR: FREE, its key handed to the ULP for its first REG_MR. */
int orxe_alloc_mr(struct oib_mr *ibmr, u32 max_num_sg)
{
	return oib_sw_mr_alloc(&to_rdev(ibmr->device)->mr_keys, oib_sw_mr(ibmr), max_num_sg);
}

/*
 * No key finds the MR any more, and the copies that resolved one before are waited out (they are
 * short: a packet, a run, a read's responses): the memory is the registrant's again.
 */
void orxe_dereg_mr(struct oib_mr *ibmr)
{
	oib_sw_mr_dereg(&to_rdev(ibmr->device)->mr_keys, oib_sw_mr(ibmr));
}

/* Whether @rkey allows what orxe_rkey_get() would resolve, nothing held afterwards. */
bool orxe_rkey_ok(struct orxe_dev *rdev, struct oib_pd *pd, u32 rkey, u64 va, u32 len, int access)
{
	struct oib_sw_mr *mr;

	if (!orxe_rkey_get(rdev, pd, rkey, va, len, access, &mr))
		return false;
	oib_sw_mr_put(mr);
	return true;
}

/*
 * Copy @len bytes between @buf and the SGL @sge[@num_sge], starting @off bytes into the SGL: into
 * it if @to_sgl (its keys must grant local write), else out of it.  False if a key fails or the SGL
 * is too short.
 */
bool orxe_sgl_copy(struct orxe_qp *qp, const struct oib_sge *sge, u32 num_sge, u32 off, void *buf,
		   u32 len, bool to_sgl)
{
	struct orxe_dev *rdev = to_rdev(qp->ib.device);
	int access = to_sgl ? OIB_ACCESS_LOCAL_WRITE : 0;
	struct oib_sw_mr *mr;
	u32 i, n;
	u8 *kva;

	for (i = 0; i < num_sge && len; i++, sge++) {
		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		kva = orxe_sge_get(rdev, orxe_qp_data_pd(qp), sge, access, &mr);
		if (!kva)
			return false;
		n = min(len, sge->length - off);
		if (to_sgl)
			memcpy(kva + off, buf, n);
		else
			memcpy(buf, kva + off, n);
		oib_sw_mr_put(mr);
		buf += n;
		len -= n;
		off = 0;
	}
	return !len;
}

/*
 * The kernel address of the @len bytes @off bytes into the SGL @sge[@num_sge], if they lie in one
 * SGE whose key allows reading them; NULL otherwise (orxe_sgl_copy() then copies them, or finds
 * the key that fails).  An SGE @memo holds is not looked up again; one looked up goes into it,
 * with its MR's reference, in place of the one before.
 */
const void *orxe_sgl_kva(struct orxe_qp *qp, const struct oib_sge *sge, u32 num_sge, u32 off,
			 u32 len, struct orxe_sge_memo *memo)
{
	struct oib_sw_mr *mr;
	u8 *kva;
	u32 i;

	for (i = 0; i < num_sge; i++, sge++) {
		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		if (len > sge->length - off)
			return NULL;
		if (memo->sge == sge)
			return memo->kva + off;
		kva = orxe_sge_get(to_rdev(qp->ib.device), orxe_qp_data_pd(qp), sge, 0, &mr);
		if (!kva)
			return NULL;
		orxe_sge_memo_drop(memo);
		memo->sge = sge;
		memo->kva = kva;
		memo->mr = mr;
		return kva + off;
	}
	return NULL;
}

/* The end of a sender's run: what @memo holds is let go. */
void orxe_sge_memo_drop(struct orxe_sge_memo *memo)
{
	oib_sw_mr_put(memo->mr);
	memo->sge = NULL;
	memo->kva = NULL;
	memo->mr = NULL;
}
