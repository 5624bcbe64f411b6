package ui

// heightIndex keeps row heights in a Fenwick tree so the offset of a row and
// the row at an offset cost O(log n): the transcript must not get slower as
// its history grows, and widget.List walks every row once any height differs.
type heightIndex struct {
	v []float64 // row heights
	t []float64 // 1-based Fenwick tree; len(t)-1 is a power of two
}

func (h *heightIndex) len() int { return len(h.v) }

func (h *heightIndex) at(i int) float64 { return h.v[i] }

func (h *heightIndex) grow() {
	capacity := 1024
	for capacity < 2*len(h.v)+1 {
		capacity *= 2
	}
	h.t = make([]float64, capacity+1)
	for i, x := range h.v {
		h.t[i+1] += x
		if j := (i + 1) + ((i + 1) & -(i + 1)); j <= len(h.v) {
			h.t[j] += h.t[i+1]
		}
	}
}

// push appends a row of height x.
func (h *heightIndex) push(x float64) {
	if len(h.v)+1 >= len(h.t) {
		h.v = append(h.v, x)
		h.grow()
		return
	}
	h.v = append(h.v, x)
	i := len(h.v)
	sum := x
	for step := 1; step < i&-i; step <<= 1 {
		sum += h.t[i-step]
	}
	h.t[i] = sum
}

// set changes row i's height.
func (h *heightIndex) set(i int, x float64) {
	d := x - h.v[i]
	if d == 0 {
		return
	}
	h.v[i] = x
	for k := i + 1; k <= len(h.v); k += k & -k {
		h.t[k] += d
	}
}

// offset is the sum of the heights of rows before i.
func (h *heightIndex) offset(i int) float64 {
	s := 0.0
	for k := i; k > 0; k -= k & -k {
		s += h.t[k]
	}
	return s
}

func (h *heightIndex) total() float64 { return h.offset(len(h.v)) }

// find returns the row that contains offset y (clamped to the rows there are).
func (h *heightIndex) find(y float64) int {
	if len(h.v) == 0 {
		return 0
	}
	pos := 0
	step := 1
	for step*2 < len(h.t) {
		step *= 2
	}
	for ; step > 0; step >>= 1 {
		if n := pos + step; n <= len(h.v) && h.t[n] <= y {
			pos = n
			y -= h.t[n]
		}
	}
	if pos >= len(h.v) {
		pos = len(h.v) - 1
	}
	return pos
}
