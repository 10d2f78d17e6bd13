package acbstrat

// The goals of a program: each walks the units a rule decided along the
// shared distance fields and ranks their options through the shared
// resolver, as the hand-written strategies do.

// fightWeights are the danger weights of boldness b (0..100): 0 is the
// gatherer's (losing fights and trades avoided hard), 100 walks into
// trades and seeks won fights.
func fightWeights(bold int) (wLose, wTrade, wWin float64) {
	x := float64(bold) / 100
	return -60 * (1 - x), -15 + 20*x, 4 * x
}

// play plays rule r's goal for the units idx.
func (p *progPolicy) play(b *bot, r int, idx []int32) {
	ru := p.p.rules[r]
	wLose, wTrade, wWin := fightWeights(ru.bold)
	o := moveOpts{wLose: wLose, wTrade: wTrade, wWin: wWin, coreStay: 5}
	switch ru.goal {
	case gHold:
		for _, i := range idx {
			b.stay(int(i))
		}
	case gGather:
		caution := (3*(100-ru.bold) + 50) / 100
		p.gather[r].run(b, idx, 6, caution)
	case gExplore:
		p.sectors = b.staleSectors(p.sectors[:0], 20, len(idx))
		b.assign(&p.explore[r], idx, p.sectors, nil, 4*(b.g.rows+b.g.cols))
		rest := b.sendAssigned(&p.explore[r], idx, &o, idx[len(idx):])
		for _, i := range rest {
			var sc [5]float64
			b.spread(b.own[i], &sc, 1)
			b.settle(int(i), &sc, &o)
		}
	case gAttackCore:
		b.cached(&p.enemyCoreMC, b.enemyCores)
		for _, i := range idx {
			var sc [5]float64
			b.towardCached(b.own[i], &p.enemyCoreMC, 1, &sc)
			b.settle(int(i), &sc, &o)
		}
	case gRaze:
		p.walk(b, idx, p.openField(b), 1, &o)
	case gHunt:
		p.walk(b, idx, p.preyField(b), 1, &o)
	case gDefend:
		p.defend(b, idx, &o)
	case gGroup:
		c := p.centreTile(b)
		for _, i := range idx {
			var sc [5]float64
			if b.own[i] != c {
				b.towardTile(b.own[i], c, 1, &sc)
			}
			b.settle(int(i), &sc, &o)
		}
	case gFlee:
		o.margin = 1
		p.walk(b, idx, p.enemyField(b), -1, &o)
	case gSafety:
		for _, i := range idx {
			u := b.own[i]
			c, _ := b.nearestCentre(u)
			var sc [5]float64
			b.towardTile(u, c, 1, &sc)
			b.settle(int(i), &sc, &o)
		}
	}
}

// walk moves the units down field f (up it when w is negative).
func (p *progPolicy) walk(b *bot, idx []int32, f field, w float64, o *moveOpts) {
	for _, i := range idx {
		var sc [5]float64
		if f != nil {
			b.toward(b.own[i], f, w, &sc)
		}
		b.settle(int(i), &sc, o)
	}
}

// defend keeps the units two steps from the own core nearest an enemy
// unit (the nearest own core when no enemy is in sight).
func (p *progPolicy) defend(b *bot, idx []int32, o *moveOpts) {
	core := b.ownCores[0]
	if ef := p.enemyField(b); ef != nil {
		bd := far + 1
		for _, c := range b.ownCores {
			if d := ef.at(c); d < bd {
				core, bd = c, d
			}
		}
	}
	f := b.fieldTo(core)
	for _, i := range idx {
		var sc [5]float64
		b.atDist(b.own[i], f, 2, 1, &sc)
		b.settle(int(i), &sc, o)
	}
}
