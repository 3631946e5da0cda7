// Package dotgrad holds the matrix products of TinyAgent's graph, a dense layer's x·w and
// attention's q·kᵀ and p·v, with gradients that GoMLX's pure-Go backend computes with less data
// movement: the same values and gradients as graph.DotGeneral bit for bit, or, for FastScores
// and FastMix, to float32 rounding.
//
// GoMLX differentiates a product into products whose contracted axes are not the ones the
// backend's matrix kernels read: a kernel reads each operand's contracted axes last (or, for the
// second operand, right after its batch axes). The backend then transposes the operands first,
// with its generic transpose, which moves one element at a time, about 4 ns per element (GoMLX
// v0.28.16, package compute v0.1.14); those transposes took more than a third of TinyAgent's
// training step.
//
//   - Dense (x·w): w's gradient contracts the output's gradient dy [..., out] with x [..., in] over
//     their leading axes. The backend would transpose both and then the [out, in] result; Dense
//     transposes only the smaller of x and dy, and only where the product is large enough for the
//     backend's packed kernel (4 Mi multiply-adds), which sums in the same order whatever the
//     layout. Below that it keeps GoMLX's gradient.
//   - Scores (q·kᵀ) and Mix (p·v): k's and v's gradients contract over the query axis, which is not
//     last; Scores and Mix hand the backend the operands it would have made itself, in the same
//     layout, so it runs the same kernel on the same values.
//   - FastScores and FastMix compute k's and v's gradients as (qᵀ·dS)ᵀ and (dOᵀ·p)ᵀ, so that the
//     backend reads the large [..., T, S] operand where it lies and transposes only small ones. They
//     sum in another order: the values match to float32 rounding, not bit for bit
//     (TestAttentionProductsMatchDotGeneralBitForBit checks both kinds), which is why they are
//     separate functions rather than Scores' and Mix's gradients.
//
// Every transpose that remains is made by swap, which runs it as the backend's fast four-axis
// transpose (the one for attention heads) instead of the generic one. A transpose only moves
// values, so apart from FastScores and FastMix none of this changes a bit
// (TestDenseMatchesDotGeneralBitForBit, TestAttentionProductsMatchDotGeneralBitForBit); only the
// time differs. The fix belongs in the
// backend (a kernel that reads its first operand transposed, a faster generic transpose); the
// README's performance notes describe the case.
package dotgrad
