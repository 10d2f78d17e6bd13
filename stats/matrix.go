package stats

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// pseudoInverse is the mean-zero pseudo-inverse of a Laplacian L of a
// connected graph: (L + J/n)⁻¹ - J/n.
func pseudoInverse(l [][]float64) ([][]float64, error) {
	n := len(l)
	h := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			h.SetSym(i, j, l[i][j]+1/float64(n))
		}
	}
	var chol mat.Cholesky
	if ok := chol.Factorize(h); !ok {
		return nil, errors.New("the information matrix is singular")
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		return nil, err
	}
	out := newSquare(n)
	for i := range n {
		for j := range n {
			out[i][j] = inv.At(i, j) - 1/float64(n)
		}
	}
	return out, nil
}

func trace(m [][]float64) float64 {
	t := 0.0
	for i := range m {
		t += m[i][i]
	}
	return t
}

func newSquare(n int) [][]float64 {
	m := make([][]float64, n)
	flat := make([]float64, n*n)
	for i := range m {
		m[i] = flat[i*n : (i+1)*n]
	}
	return m
}

// checkSquare refuses a matrix that is not n by n (one row and column
// per player, or per strategy).
func checkSquare(name string, m [][]float64, n int) error {
	if len(m) != n {
		return fmt.Errorf("%s has %d rows, want %d", name, len(m), n)
	}
	for i, row := range m {
		if len(row) != n {
			return fmt.Errorf("%s row %d has %d entries, want %d", name, i, len(row), n)
		}
	}
	return nil
}
