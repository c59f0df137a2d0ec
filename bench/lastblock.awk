# lastblock.awk -v n=N: the N-block last-block-done reduction of CUDA's
# threadFenceReduction sample as a litmus test (bench/idioms.sh's
# lastblock): each block stores its partial (st.weak), fences
# (fence.sc.gpu) and takes a ticket (atom.inc); the block with the last
# ticket fences, sums every partial (ld.weak) and stores the sum;
# exists (sum != N): No.  Every block is a thread in a CTA of its own.
BEGIN {
  printf "PTX lastblock_%d\n{ ticket=0; sum=0;", n
  for (i = 0; i < n; i++) printf " p%d=0;", i
  print " }"
  for (i = 0; i < n; i++) printf "%s P%d@cta %d,gpu 0", (i ? " |" : ""), i, i
  print " ;"
  k = 0
  row[k++] = "st.weak p%d, 1"; row[k++] = "fence.sc.gpu"
  row[k++] = "atom.relaxed.gpu.inc r0, ticket, " (n - 1)
  row[k++] = "bne r0, " (n - 1) ", LC%d9"; row[k++] = "fence.sc.gpu"
  row[k++] = "mov r1, 0"
  for (j = 0; j < n; j++) { row[k++] = "ld.weak r2, p" j; row[k++] = "add r1, r1, r2" }
  row[k++] = "st.weak sum, r1"; row[k++] = "LC%d9:"
  for (r = 0; r < k; r++) {
    for (i = 0; i < n; i++) { printf "%s ", (i ? " |" : ""); printf row[r], i }
    print " ;"
  }
  printf "exists (sum != %d)\n", n
}
