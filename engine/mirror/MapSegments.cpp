#include "engine/mirror/MapSegments.h"

namespace md {

void MapSegments::reset()
{
    m_segs.clear();
    m_writtenCovered = -1;
    m_acked = -1;
    m_used = false;
    m_resetPending = false;
    m_resetWritten = false;
    ++m_generation; // m_inFlight stays: those reports still come, and settle() counts them
}

void MapSegments::acknowledged(const Write &w)
{
    if (w.round <= m_distrustThrough)
        return;
    if (w.reset) {
        m_resetPending = false; // m_resetWritten stays: an aborted transaction takes it back (rewind)
        return;
    }
    m_acked = std::max(m_acked, w.covered);
    for (Segment &s : m_segs)
        if (s.sourceStart == w.sourceStart && w.whole && s.sourceEnd == w.sourceEnd && !s.dirty)
            s.acked = true;
    // Closed segments whose last write is durable are done with, oldest first.
    while (m_segs.size() > 1 && m_segs.front().acked && !m_segs.front().dirty)
        m_segs.pop_front();
}

void MapSegments::refused()
{
    m_distrustThrough = m_round;
    m_resetWritten = false; // written again, first, if it was not acknowledged
    for (Segment &s : m_segs) {
        s.dirty = true;
        s.acked = false;
    }
    m_writtenCovered = -1;
}

void MapSegments::committedInTransaction()
{
    // Committed with the records: every written segment is durable.
    if (m_resetWritten) {
        m_resetPending = false;
        m_resetWritten = false;
    }
    for (Segment &s : m_segs)
        if (!s.dirty)
            s.acked = true;
    while (m_segs.size() > 1 && m_segs.front().acked)
        m_segs.pop_front();
}

void MapSegments::rewind(qint64 base)
{
    // Same keys when written again: compaction keeps one.
    if (m_resetWritten) { // aborted with the transaction: first in the next one
        m_resetPending = true;
        m_resetWritten = false;
    }
    while (!m_segs.empty() && m_segs.back().sourceStart >= base)
        m_segs.pop_back();
    for (Segment &s : m_segs) {
        s.sourceEnd = std::min(s.sourceEnd, base);
        while (!s.steps.empty() && s.steps.back().source >= s.sourceEnd)
            s.steps.pop_back();
        s.dirty = true;
        s.acked = false;
    }
    m_writtenCovered = -1;
}

} // namespace md
