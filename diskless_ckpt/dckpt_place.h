/*
 * dckpt_place.h - which ranks form each encoding group (no MPI). Groups are
 * placed across hosts so that losing one host costs a group as few members
 * as possible: never two members of a group on one host when the host
 * layout allows it (docs/diskless_ckpt.md, "Placement across hosts").
 */
#ifndef DCKPT_PLACE_H
#define DCKPT_PLACE_H

/*
 * nprocs ranks, host[r] the host of rank r (any integers; NULL: every rank
 * on a host of its own), ngroups groups of sizes size_of(g) = base + 1 for
 * g < extra, else base (base = nprocs / ngroups, extra = nprocs % ngroups).
 * Fills group_of[r] and group_rank_of[r] (members of a group numbered in
 * rank order). Returns 0, or -1 when out of memory.
 *
 * Ranks are dealt host by host, round-robin over the hosts (the largest
 * first; within a host in rank order), and groups take consecutive runs of
 * that order, so a group of at most as many members as there are hosts
 * gets each of them from a different host when the hosts hold equally many
 * ranks. With one rank per host (host NULL) or a single host this is the
 * plain layout: group g is a run of consecutive ranks.
 */
int dckpt_place(int nprocs, int ngroups, const int *host, int *group_of, int *group_rank_of);

#endif
