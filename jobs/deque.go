package jobs

// deque is a growable circular queue: push at the back, pop at the front,
// index from the front. The zero value is empty and usable. Popped slots are
// not cleared, so T should hold no pointers (the ring's entries do not).
type deque[T any] struct {
	buf  []T
	head int // index of the front element in buf
	n    int
}

func (d *deque[T]) len() int { return d.n }

// at returns a pointer to the i-th element from the front (0 ≤ i < len).
func (d *deque[T]) at(i int) *T { return &d.buf[(d.head+i)%len(d.buf)] }

func (d *deque[T]) front() *T { return d.at(0) }

func (d *deque[T]) push(v T) {
	if d.n == len(d.buf) {
		nb := make([]T, max(16, 2*len(d.buf)))
		for i := 0; i < d.n; i++ {
			nb[i] = *d.at(i)
		}
		d.buf, d.head = nb, 0
	}
	d.buf[(d.head+d.n)%len(d.buf)] = v
	d.n++
}

func (d *deque[T]) popFront() { d.dropFront(1) }

// dropFront pops k elements from the front (0 ≤ k ≤ len).
func (d *deque[T]) dropFront(k int) {
	if k <= 0 {
		return
	}
	d.head = (d.head + k) % len(d.buf)
	d.n -= k
}

func (d *deque[T]) clear() { d.head, d.n = 0, 0 }
