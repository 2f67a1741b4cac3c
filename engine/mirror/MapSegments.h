#pragma once

#include "engine/offsetmap/OffsetMap.h"

#include <QtGlobal>

#include <algorithm>
#include <deque>
#include <vector>

namespace md {

// One partition's offset map as the engine writes it (docs/ARCHITECTURE.md,
// "The offset map"): the segments copied in this assignment in the order they
// began, the last one growing, and how far the target has made them durable.
// No Kafka here: OffsetMapWriter produces what write() hands it and reports
// each delivery back; the mirror worker keeps one per partition.
class MapSegments {
public:
    struct Segment {
        qint64 sourceStart = -1, sourceEnd = -1, targetStart = -1;
        std::vector<OffsetStep> steps; // OffsetSegment::steps
        bool dirty = true;             // changed since it was last written
        bool acked = false;            // its last write (whole) was acknowledged
        qint64 shift() const { return steps.empty() ? 0 : steps.back().shift; } // the target's skips so far
        qint64 targetNext() const { return targetStart + (sourceEnd - sourceStart) + shift(); }
    };
    // What one map record says, and what its delivery report needs.
    struct Write {
        int generation = 0;
        quint64 round = 0; // the write() that produced it
        qint64 sourceStart = -1;
        qint64 sourceEnd = -1; // written (clipped to covered)
        qint64 targetStart = -1;
        qint64 covered = -1;
        bool whole = false;            // the segment's whole extent as of the write
        std::vector<OffsetStep> steps; // those below sourceEnd
        bool reset = false;            // not a segment: the partition's reset record (resetFirst)
    };

    // Delivery of one copied record: extend the current segment (two integer
    // writes), add a step where only the target skipped offsets, or begin a
    // new segment at any other discontinuity.
    void noteCopied(qint64 source, qint64 target)
    {
        if (!m_segs.empty()) {
            Segment &c = m_segs.back();
            if (source == c.sourceEnd) {
                const qint64 next = c.targetNext();
                if (target == next) {
                    ++c.sourceEnd;
                    c.dirty = true;
                    return;
                }
                if (target > next && int(c.steps.size()) < kMaxOffsetSteps) {
                    c.steps.push_back({source, c.shift() + (target - next)});
                    ++c.sourceEnd;
                    c.dirty = true;
                    return;
                }
            }
        }
        Segment s;
        s.sourceStart = source;
        s.sourceEnd = source + 1;
        s.targetStart = target;
        m_segs.push_back(std::move(s));
        m_used = true;
    }

    // A new assignment of the partition: what the last one noted is
    // forgotten, and reports of its writes still in flight are stale.
    void reset();
    // The partition's source log was replaced (its topic deleted and created
    // again): before its first segment, a reset record tells readers to drop
    // what the map held for the partition (the old log's copies), and no
    // commit passes the map until that record is durable.
    void resetFirst() { m_resetPending = true; }
    bool resetPending() const { return m_resetPending; }

    // What a commit may reach: never past what the map has made durable, so
    // the map covers everything below a committed offset. Nothing copied in
    // this assignment: the map has nothing to cover.
    qint64 limit(qint64 committable) const { return m_used ? std::min(committable, m_acked) : committable; }

    // Hands produce(const Write &) -> bool every record the map needs to say
    // what is copied below `covered` (the partition's committable offset:
    // acknowledged in order below it). A false return stops this round; the
    // rest is written at the next one.
    template <class Produce> void write(qint64 covered, Produce &&produce);

    // A write's delivery report, first of all: false when it was written for
    // an earlier assignment (nothing else is to be done with it).
    bool settle(const Write &w)
    {
        --m_inFlight;
        return w.generation == m_generation;
    }
    void acknowledged(const Write &w);
    void refused(); // everything again, in order, at the next round; the limit stays
    // Exactly-once: the transaction that carried the writes committed.
    void committedInTransaction();
    // Exactly-once: the open transaction aborted; what it copied from `base`
    // on is forgotten and the rest written again in the next one.
    void rewind(qint64 base);

    int inFlight() const { return m_inFlight; }
    int generation() const { return m_generation; }
    bool used() const { return m_used; }
    qint64 acked() const { return m_acked; }
    const std::deque<Segment> &segments() const { return m_segs; }

private:
    std::deque<Segment> m_segs;
    qint64 m_writtenCovered = -1; // covered of the last map records produced
    qint64 m_acked = -1;          // covered of the last acknowledged map record: commits never pass it
    int m_inFlight = 0;
    int m_generation = 0; // a new assignment: older map reports are stale
    quint64 m_round = 0;  // write() rounds that produced something
    // A refused write: what rounds up to this one said is not trusted (a
    // later record of the same round may be acknowledged although an earlier
    // segment never arrived); everything is written again after it.
    quint64 m_distrustThrough = 0;
    bool m_used = false;         // something was copied in this assignment
    bool m_resetPending = false; // resetFirst: the reset record is not durable yet
    bool m_resetWritten = false; // produced, and not yet committed (exactly-once) or refused
};

template <class Produce> void MapSegments::write(qint64 covered, Produce &&produce)
{
    if (m_segs.empty() || covered < 0)
        return;
    // What this round writes: each dirty segment's part below covered (only
    // that is final: acknowledged in order), else, with progress but no new
    // copies (control records, aborted records at the end), the last segment
    // again with the new covered.
    std::vector<Segment *> round;
    for (Segment &s : m_segs)
        if (s.dirty && std::min(s.sourceEnd, covered) > s.sourceStart)
            round.push_back(&s);
    if (round.empty()) {
        if (covered == m_writtenCovered || std::min(m_segs.back().sourceEnd, covered) <= m_segs.back().sourceStart)
            return;
        round.push_back(&m_segs.back());
    }
    ++m_round;
    if (m_resetPending && !m_resetWritten) {
        Write r{m_generation, m_round, -1, -1, -1, -1, false, {}, true};
        if (!produce(r))
            return;
        ++m_inFlight;
        m_resetWritten = true;
    }
    for (size_t i = 0; i < round.size(); ++i) {
        Segment &s = *round[i];
        const qint64 end = std::min(s.sourceEnd, covered);
        // A record claims to cover only up to the next segment of the round:
        // if that one is never written (a full queue, a crash), the map must
        // not say its offsets were gaps.
        const qint64 claim =
            i + 1 < round.size() ? std::max(end, std::min(covered, round[i + 1]->sourceStart)) : covered;
        Write w{m_generation, m_round, s.sourceStart, end, s.targetStart, claim, end == s.sourceEnd, {}};
        for (const OffsetStep &st : s.steps)
            if (st.source < end)
                w.steps.push_back(st);
        if (!produce(w))
            return; // the rest at the next round
        ++m_inFlight;
        if (end == s.sourceEnd)
            s.dirty = false;
        s.acked = false;
    }
    m_writtenCovered = covered;
}

} // namespace md
