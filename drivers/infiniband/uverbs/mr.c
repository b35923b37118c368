// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions over user memory.  The pages are pinned (pin_user_pages_fast(), FOLL_LONGTERM),
 * charged to the process's RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK (mm->pinned_vm, as the
 * in-tree stack does), mapped into the kernel with vmap() and registered as a kernel MR whose
 * iova is the user address: posted SGEs and remote requests name
 * the memory as the process sees it.  An SGE's lkey must be one of this context's MRs (mr_keys):
 * never another context's, nor the PD's local DMA lkey (kernel memory).  The remote keys a peer
 * uses are checked by the provider against the QP's PD and the MR's access, as the kernel's are.
 * The pages are unpinned as the MR is deregistered: oib_dereg_mr() returns once the provider is
 * done with them (struct oib_uverbs_umem).  They are pinned before the context's lock is taken
 * (oib_uverbs_reg_mr_before()): faulting them in may wait on anything the process arranged.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "uverbs.h"

#define OIB_UVERBS_MR_MAX_LEN	SZ_1G

OIB_UVERBS_SAME(OIB_UVERBS_ACCESS_LOCAL_WRITE, OIB_ACCESS_LOCAL_WRITE);
OIB_UVERBS_SAME(OIB_UVERBS_ACCESS_REMOTE_WRITE, OIB_ACCESS_REMOTE_WRITE);
OIB_UVERBS_SAME(OIB_UVERBS_ACCESS_REMOTE_READ, OIB_ACCESS_REMOTE_READ);
OIB_UVERBS_SAME(OIB_UVERBS_ACCESS_REMOTE_ATOMIC, OIB_ACCESS_REMOTE_ATOMIC);

static int oib_uverbs_charge(struct mm_struct *mm, unsigned long npages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	s64 total = atomic64_add_return(npages, &mm->pinned_vm);

	if (total > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

static int oib_uverbs_pin(struct oib_uverbs_umem *umem, unsigned long start, bool write)
{
	unsigned int gup = FOLL_LONGTERM | (write ? FOLL_WRITE : 0);
	unsigned long done = 0;
	int n;

	while (done < umem->npages) {
		n = pin_user_pages_fast(start + done * PAGE_SIZE, umem->npages - done, gup,
					umem->pages + done);
		if (n <= 0) {
			unpin_user_pages(umem->pages, done);
			return n ? n : -EFAULT;
		}
		done += n;
	}
	return 0;
}

static struct oib_uverbs_umem *oib_uverbs_umem_get(u64 addr, u64 length, bool write)
{
	unsigned long start = addr & PAGE_MASK;
	struct oib_uverbs_umem *umem;
	int ret = -ENOMEM;

	umem = kzalloc(sizeof(*umem), GFP_KERNEL_ACCOUNT);
	if (!umem)
		return ERR_PTR(-ENOMEM);
	umem->npages = (PAGE_ALIGN(addr + length) - start) >> PAGE_SHIFT;
	umem->mm = current->mm;
	ret = oib_uverbs_charge(umem->mm, umem->npages);
	if (ret)
		goto err_free;
	umem->pages = kvcalloc(umem->npages, sizeof(*umem->pages), GFP_KERNEL_ACCOUNT);
	if (!umem->pages)
		goto err_uncharge;
	ret = oib_uverbs_pin(umem, start, write);
	if (ret)
		goto err_pages;
	umem->vaddr = vmap(umem->pages, umem->npages, VM_MAP, PAGE_KERNEL);
	if (!umem->vaddr) {
		ret = -ENOMEM;
		unpin_user_pages(umem->pages, umem->npages);
		goto err_pages;
	}
	mmgrab(umem->mm);
	return umem;
err_pages:
	kvfree(umem->pages);
err_uncharge:
	atomic64_sub(umem->npages, &umem->mm->pinned_vm);
err_free:
	kfree(umem);
	return ERR_PTR(ret);
}

void oib_uverbs_umem_free(struct oib_uverbs_umem *umem)
{
	vunmap(umem->vaddr);
	unpin_user_pages_dirty_lock(umem->pages, umem->npages, true);
	kvfree(umem->pages);
	atomic64_sub(umem->npages, &umem->mm->pinned_vm);
	mmdrop(umem->mm);
	kfree(umem);
}

/* The MR over the pinned pages @umr->umem; on failure the caller keeps them. */
static int oib_uverbs_mr_make(struct oib_uverbs_call *call, struct oib_uverbs_mr *umr,
			      struct oib_uverbs_reg_mr *cmd)
{
	struct oib_mr *mr;
	int ret;

	mr = oib_reg_kernel_mr_iova(umr->upd->pd, umr->umem->vaddr + offset_in_page(cmd->addr),
				    cmd->length, cmd->addr, cmd->access);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	umr->mr = mr;
	ret = oib_uobj_insert(call->ufile, &umr->uobj, OIB_UVERBS_OBJ_MR, cmd->user_handle);
	if (!ret) {
		ret = xa_insert_irq(&call->ufile->mr_keys, mr->lkey, umr, GFP_KERNEL);
		if (ret)
			xa_erase(&call->ufile->handles, umr->uobj.handle);
	}
	if (ret)
		oib_dereg_mr(mr);
	return ret;
}

/* The command checked and its pages pinned, into call->stage, before the context's lock. */
int oib_uverbs_reg_mr_before(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_reg_mr *cmd = buf;
	struct oib_uverbs_umem *umem;

	if (cmd->reserved || cmd->handle || cmd->lkey || cmd->rkey ||
	    cmd->access & ~OIB_UVERBS_ACCESS_ALL)
		return -EINVAL;
	if (!cmd->length || cmd->length > OIB_UVERBS_MR_MAX_LEN ||
	    cmd->addr + cmd->length < cmd->addr || !access_ok(u64_to_user_ptr(cmd->addr),
							       cmd->length))
		return -EINVAL;
	/* remote write and atomics imply local write (the core checks it) */
	umem = oib_uverbs_umem_get(cmd->addr, cmd->length,
				   cmd->access & OIB_UVERBS_ACCESS_LOCAL_WRITE);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	call->stage = umem;
	return 0;
}

/* Takes call->stage's pinned pages for the MR it makes. */
int oib_uverbs_reg_mr(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_reg_mr *cmd = buf;
	struct oib_uverbs_mr *umr;
	struct oib_uverbs_pd *upd;
	int ret;

	upd = oib_uobj_get(call->ufile, cmd->pd_handle, OIB_UVERBS_OBJ_PD);
	if (IS_ERR(upd))
		return PTR_ERR(upd);
	umr = kzalloc(sizeof(*umr), GFP_KERNEL_ACCOUNT);
	ret = -ENOMEM;
	if (umr) {
		umr->upd = upd;
		umr->uaddr = cmd->addr;
		umr->length = cmd->length;
		umr->umem = call->stage;
		ret = oib_uverbs_mr_make(call, umr, cmd);
	}
	oib_uobj_put(&upd->uobj);
	if (ret) {
		kfree(umr);
		return ret;
	}
	call->stage = NULL;
	cmd->handle = umr->uobj.handle;
	cmd->lkey = umr->mr->lkey;
	cmd->rkey = umr->mr->rkey;
	oib_uobj_commit(&umr->uobj);
	return 0;
}

/* Pages no MR took are unpinned. */
int oib_uverbs_reg_mr_after(struct oib_uverbs_call *call, void *buf, int ret)
{
	if (call->stage)
		oib_uverbs_umem_free(call->stage);
	return ret;
}

int oib_uverbs_mr_destroy(struct oib_uverbs_uobj *uobj, void *resp)
{
	struct oib_uverbs_mr *umr = container_of(uobj, struct oib_uverbs_mr, uobj);
	struct oib_uverbs_file *ufile = uobj->ufile;
	int ret;

	xa_erase_irq(&ufile->mr_keys, umr->mr->lkey);	/* no new post names it */
	ret = oib_dereg_mr(umr->mr);
	if (ret) {
		xa_store_irq(&ufile->mr_keys, umr->mr->lkey, umr, GFP_KERNEL);
		return ret;
	}
	oib_uverbs_umem_free(umr->umem);	/* the device is done with it: see uverbs.h */
	return 0;
}

int oib_uverbs_dereg_mr(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_destroy *cmd = buf;

	if (cmd->reserved)
		return -EINVAL;
	return oib_uobj_destroy(call->ufile, cmd->handle, OIB_UVERBS_OBJ_MR, NULL);
}

/*
 * An SGE posted by user space, as the provider takes it: @u's range must lie inside an MR of
 * this context on @pd, named by its lkey.  Never the PD's local DMA lkey: it names kernel memory.
 * Any context: a receive ring is read by the provider's receive path (mr_keys's lock is taken
 * with interrupts off everywhere).
 */
int oib_uverbs_sge_from_user(struct oib_uverbs_file *ufile, struct oib_pd *pd,
			     const struct oib_uverbs_sge *u, struct oib_sge *k)
{
	struct oib_uverbs_mr *umr;
	unsigned long flags;
	int ret = -EINVAL;

	xa_lock_irqsave(&ufile->mr_keys, flags);
	umr = xa_load(&ufile->mr_keys, u->lkey);
	if (umr && umr->mr->pd == pd && u->addr >= umr->uaddr && u->length <= umr->length &&
	    u->addr - umr->uaddr <= umr->length - u->length) {
		k->addr = u->addr;	/* the MR's iova is the user address */
		k->length = u->length;
		k->lkey = u->lkey;
		ret = 0;
	}
	xa_unlock_irqrestore(&ufile->mr_keys, flags);
	return ret;
}
