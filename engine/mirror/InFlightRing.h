#pragma once

#include <QtGlobal>

#include <cstdint>
#include <vector>

namespace md {

// Source offsets of one partition handed to the producer and not yet
// acknowledged, in produce order (so ascending). The front is the first
// offset that may not be committed past. A growable ring: after warm-up,
// push/ack/pop never allocate, unlike std::deque which allocates blocks as it
// moves.
class InFlightRing final {
public:
    enum class State : quint8 { InFlight, Acked, Failed };

    bool isEmpty() const { return m_size == 0; }
    qsizetype size() const { return m_size; }
    qsizetype inFlight() const { return m_inFlight; }
    qint64 frontOffset() const { return at(0).offset; }
    // The front record's timestamp: the next record to commit past, whose age is the lag in time.
    qint64 frontTimestamp() const { return at(0).timestamp; }
    State frontState() const { return at(0).state; }

    // `bytes`: the record's size (key, value, headers), handed back on
    // completion; `timestamp`: the record's (ms), -1 unknown.
    void push(qint64 offset, qint32 bytes, qint64 timestamp = -1)
    {
        if (m_size == qsizetype(m_buf.size()))
            grow();
        m_buf[size_t((m_head + m_size) & (qsizetype(m_buf.size()) - 1))] = {offset, timestamp, bytes, State::InFlight};
        ++m_size;
        ++m_inFlight;
    }

    // Marks `offset` acknowledged (ok) or failed and pops acknowledged
    // entries off the front. Returns false when the offset is not in flight
    // (a stale report after a rebalance or replay cleared the ring).
    bool complete(qint64 offset, bool ok, qint32 *bytes = nullptr)
    {
        const qsizetype i = find(offset);
        if (i < 0 || at(i).state != State::InFlight)
            return false;
        at(i).state = ok ? State::Acked : State::Failed;
        if (bytes)
            *bytes = at(i).bytes;
        --m_inFlight;
        while (m_size > 0 && at(0).state == State::Acked) {
            m_head = (m_head + 1) & (qsizetype(m_buf.size()) - 1);
            --m_size;
        }
        return true;
    }

    void clear()
    {
        m_head = 0;
        m_size = 0;
        m_inFlight = 0;
    }

private:
    struct Entry {
        qint64 offset;
        qint64 timestamp; // lag in time reads it at the front, so no extra read while records are in flight
        qint32 bytes;     // fits the padding: 24 bytes an entry
        State state;
    };

    Entry &at(qsizetype i) { return m_buf[size_t((m_head + i) & (qsizetype(m_buf.size()) - 1))]; }
    const Entry &at(qsizetype i) const { return m_buf[size_t((m_head + i) & (qsizetype(m_buf.size()) - 1))]; }

    qsizetype find(qint64 offset) const
    {
        // Acknowledgements arrive in order within a partition, so the front
        // is the usual hit; otherwise binary search the ascending offsets.
        if (m_size == 0)
            return -1;
        if (at(0).offset == offset)
            return 0;
        qsizetype lo = 0, hi = m_size - 1;
        while (lo <= hi) {
            const qsizetype mid = lo + (hi - lo) / 2;
            const qint64 o = at(mid).offset;
            if (o == offset)
                return mid;
            if (o < offset)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        return -1;
    }

    void grow()
    {
        std::vector<Entry> bigger(m_buf.empty() ? 64 : m_buf.size() * 2);
        for (qsizetype i = 0; i < m_size; ++i)
            bigger[size_t(i)] = at(i);
        m_buf.swap(bigger);
        m_head = 0;
    }

    std::vector<Entry> m_buf; // power-of-two capacity
    qsizetype m_head = 0;
    qsizetype m_size = 0;
    qsizetype m_inFlight = 0;
};

} // namespace md
