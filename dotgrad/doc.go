// Package dotgrad is a dense layer's matrix product for GoMLX graphs, x·w over x's last axis,
// whose gradient with respect to w GoMLX's pure-Go backend computes with less data movement.
//
// GoMLX differentiates w ↦ x·w into a product that contracts the output's gradient dy [..., out]
// with x [..., in] over their leading axes. The backend's matrix kernels read each operand's
// contracted axes last (or, for the second operand, right after its batch axes), so for that
// product it transposes both dy and x, and then transposes the [out, in] result back to [in, out]
// (GoMLX v0.28.16, package compute v0.1.14). Transposes run at about 4 ns per element on that
// backend and took more than a third of TinyAgent's training step. Dense hands the backend one
// transposed operand, the smaller of x and dy, and the other one in the layout its kernels read
// directly. The kernels are the same ones and sum in the same order, so the values and gradients
// are those of graph.DotGeneral bit for bit (TestDenseMatchesDotGeneralBitForBit); only the time
// differs. The fix belongs in the backend (a kernel that reads its first operand transposed); the
// README's performance notes describe the case.
package dotgrad
