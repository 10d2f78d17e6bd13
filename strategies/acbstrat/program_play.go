package acbstrat

import (
	"context"

	"crucible/engine/acb"
)

// progPolicy plays an acbProgram (see program_lang.go).
type progPolicy struct {
	p acbProgram

	// carry[t] is 1 + the role of the own unit that ends the turn on
	// tile t (written after the moves, read and cleared next turn).
	carry []int8
	role  []int8 // this turn's role of each own unit (0-based)
	count [progRoles]int

	groups  [progSlots + 1][]int32 // units decided by each rule; the last hold
	gather  [progSlots]gatherCore
	explore [progSlots]assignment
	sectors []int32

	// Lazily built per turn (stamp = the bot's stamp when built).
	energyStamp, enemyStamp, preyStamp, openStamp, centreStamp int32
	energyF, enemyF, preyF, openF                              field
	energyMC, enemyCoreMC, ownCoreMC                           multiCache
	targets, ready, prey, open                                 []int32
	centre                                                     int32
}

// progController adapts a program to acb.Controller: the shared turn as
// for every strategy (begin, decide, the finishing, finish), and the
// roles carried along with the moves.
type progController struct {
	b   *bot
	p   *progPolicy
	fin finishing
	fs  finishState
}

func newProgController(p acbProgram, seed uint64) *progController {
	return &progController{b: newBot(seed), p: &progPolicy{p: p},
		fin: finishing{reach: p.reach, strike: p.strike}, fs: finishState{target: -1}}
}

// RemembersWalls reports true, as for every strategy (see controller).
func (c *progController) RemembersWalls() bool { return true }

// Turn plays one turn of the program.
func (c *progController) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	b := c.b
	b.begin(v)
	if len(b.own) > 0 {
		c.p.decide(b)
		if c.fin != (finishing{}) {
			b.convert(&c.fin, &c.fs)
		}
	}
	start := len(buf)
	buf = b.finish(buf)
	c.p.carryRoles(b, buf[start:])
	return buf, nil
}

// carryRoles records each unit's role on the tile it ends the turn on.
func (p *progPolicy) carryRoles(b *bot, moves []acb.Move) {
	if p.carry == nil || len(p.carry) != b.g.n {
		p.carry = make([]int8, b.g.n)
	}
	clear(p.carry)
	for i, u := range b.own {
		if i < len(p.role) {
			p.carry[u] = p.role[i] + 1
		}
	}
	for _, m := range moves {
		from := b.g.idx(m.Position)
		r := p.carry[from]
		if r == 0 || m.Direction == acb.Stay {
			continue
		}
		p.carry[from] = 0
		to := b.g.nbr[int(from)*4+int(m.Direction)-1]
		p.carry[to] = r
	}
}

// assignRoles gives every own unit its role: the one it carried, new
// units to the role furthest below its share; every regroup turns the
// roles above their share give units to those below.
func (p *progPolicy) assignRoles(b *bot) {
	n := len(b.own)
	p.role = p.role[:0]
	p.count = [progRoles]int{}
	for _, u := range b.own {
		r := int8(-1)
		if p.carry != nil && len(p.carry) == b.g.n && p.carry[u] > 0 {
			r = p.carry[u] - 1
			p.count[r]++
		}
		p.role = append(p.role, r)
	}
	want := p.wanted(n)
	regroup := p.p.regroup > 0 && b.turn%p.p.regroup == 0
	for i := range p.role {
		r := p.role[i]
		if r >= 0 && !(regroup && p.count[r] > want[r]) {
			continue
		}
		best, gap := 0, -n-1
		for k := 0; k < progRoles; k++ {
			if g := want[k] - p.count[k]; g > gap {
				best, gap = k, g
			}
		}
		if r >= 0 {
			if gap <= 0 {
				continue
			}
			p.count[r]--
		}
		p.role[i] = int8(best)
		p.count[best]++
	}
}

// wanted splits n units by the shares (largest remainders).
func (p *progPolicy) wanted(n int) [progRoles]int {
	var w [progRoles]int
	left := n
	var rem [progRoles]int
	for k, s := range p.p.shares {
		w[k] = n * s / 100
		rem[k] = n * s % 100
		left -= w[k]
	}
	for ; left > 0; left-- {
		best := 0
		for k := range rem {
			if rem[k] > rem[best] {
				best = k
			}
		}
		w[best]++
		rem[best] = -1
	}
	return w
}

// decide sorts the units by the first rule that decides them and plays
// every rule's goal for its units.
func (p *progPolicy) decide(b *bot) {
	p.assignRoles(b)
	for k := range p.groups {
		p.groups[k] = p.groups[k][:0]
	}
	for i := range b.own {
		r := p.choose(b, i)
		p.groups[r] = append(p.groups[r], int32(i))
	}
	for r, idx := range p.groups {
		if len(idx) == 0 {
			continue
		}
		if r == progSlots {
			for _, i := range idx {
				b.stay(int(i))
			}
			continue
		}
		p.play(b, r, idx)
	}
}

// choose returns the index of the rule deciding unit i, or progSlots.
func (p *progPolicy) choose(b *bot, i int) int {
	u := b.own[i]
	feature := func(f int) float64 { return p.feature(b, u, f) }
	for r := range p.p.rules {
		ru := &p.p.rules[r]
		if ru.role != 0 && int(p.role[i]) != ru.role-1 {
			continue
		}
		if progFeatures.Fires(ru.cond, ru.join, feature) && p.hasTarget(b, u, ru.goal) {
			return r
		}
	}
	return progSlots
}

// steps reads a distance field as a feature: far stays far.
func steps(f field, u int32) float64 {
	if f == nil {
		return far
	}
	return float64(f.at(u))
}

// feature returns feature f of the unit at u.
func (p *progPolicy) feature(b *bot, u int32, f int) float64 {
	switch f {
	case fDEnergy:
		return steps(p.energyField(b), u)
	case fDEnemy:
		return steps(p.enemyField(b), u)
	case fDPrey:
		return steps(p.preyField(b), u)
	case fDEnemyCore:
		if len(b.enemyCores) == 0 {
			return far
		}
		return steps(b.cached(&p.enemyCoreMC, b.enemyCores), u)
	case fDOpenCore:
		return steps(p.openField(b), u)
	case fDOwnCore:
		if len(b.ownCores) == 0 {
			return far
		}
		return steps(b.cached(&p.ownCoreMC, b.ownCores), u)
	case fEnemyNow:
		return float64(b.enemyNow(u))
	case fEnemyNext:
		return float64(b.enemyNext(u))
	case fAllies:
		return float64(b.allies(u))
	case fStorm:
		return float64(min(b.slack(u), 100))
	case fWaited:
		return float64(b.waited(u))
	case fTurn:
		return float64(b.turn)
	case fEnergy:
		return float64(b.v.You.Energy)
	case fUnits:
		return float64(len(b.own))
	case fEnemies:
		return float64(len(b.enemy))
	case fCores:
		return float64(len(b.ownCores))
	case fEnemyCores:
		return float64(len(b.enemyCores))
	case fScore:
		return float64(b.v.You.Score)
	}
	return 0
}

// hasTarget reports whether goal g has a target for the unit at u.
func (p *progPolicy) hasTarget(b *bot, u int32, g int) bool {
	switch g {
	case gAttackCore:
		return len(b.enemyCores) > 0
	case gRaze:
		return p.openField(b) != nil
	case gHunt:
		return steps(p.preyField(b), u) < far
	case gDefend:
		return len(b.ownCores) > 0
	case gGroup:
		return len(b.own) > 1
	case gFlee:
		return steps(p.enemyField(b), u) < far
	case gSafety:
		return b.storm.on
	}
	return true
}

func (p *progPolicy) energyField(b *bot) field {
	if p.energyStamp != b.stamp {
		p.energyStamp = b.stamp
		p.targets, p.ready = b.energyTargets(p.targets[:0], p.ready[:0], 6, false)
		p.energyF = nil
		if len(p.targets) > 0 {
			p.energyF = b.cached(&p.energyMC, p.targets)
		}
	}
	return p.energyF
}

// Scratch fields of the bot used by programs (see bot.multi).
const (
	scratchEnemy = iota
	scratchPrey
	scratchOpen
)

// multiOrNil is the distance field of sources (see bot.multi), nil
// without sources.
func (b *bot) multiOrNil(k int, sources []int32, maxD int) field {
	if len(sources) == 0 {
		return nil
	}
	return b.multi(k, sources, maxD)
}

func (p *progPolicy) enemyField(b *bot) field {
	if p.enemyStamp != b.stamp {
		p.enemyStamp = b.stamp
		p.enemyF = b.multiOrNil(scratchEnemy, b.enemy, 30)
	}
	return p.enemyF
}

func (p *progPolicy) preyField(b *bot) field {
	if p.preyStamp != b.stamp {
		p.preyStamp = b.stamp
		p.prey = p.prey[:0]
		for _, e := range b.enemy {
			if b.isolation(e, 36) <= 2 {
				p.prey = append(p.prey, e)
			}
		}
		p.preyF = b.multiOrNil(scratchPrey, p.prey, 40)
	}
	return p.preyF
}

func (p *progPolicy) openField(b *bot) field {
	if p.openStamp != b.stamp {
		p.openStamp = b.stamp
		p.open = b.realEnemyCores(p.open[:0])
		n := 0
		for _, c := range p.open {
			if b.undefended(c) {
				p.open[n] = c
				n++
			}
		}
		p.open = p.open[:n]
		p.openF = b.multiOrNil(scratchOpen, p.open, 0)
	}
	return p.openF
}

// centreTile is the own unit with the most own units in attack range.
func (p *progPolicy) centreTile(b *bot) int32 {
	if p.centreStamp != b.stamp {
		p.centreStamp = b.stamp
		best, bn := b.own[0], -1
		for _, u := range b.own {
			if n := b.allies(u); n > bn {
				best, bn = u, n
			}
		}
		p.centre = best
	}
	return p.centre
}
