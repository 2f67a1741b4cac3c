#pragma once

#include <QtGlobal>

#include <memory>

namespace md {

// A fixed-capacity ring: the storage is allocated once, push() overwrites the oldest element
// when full, so memory never grows with the length of a run.
template <typename T> class RingBuffer final {
public:
    RingBuffer() = default;
    explicit RingBuffer(qsizetype capacity)
        : m_data(capacity > 0 ? std::make_unique<T[]>(size_t(capacity)) : nullptr),
          m_capacity(capacity > 0 ? capacity : 0)
    {
    }
    RingBuffer(RingBuffer &&) noexcept = default;
    RingBuffer &operator=(RingBuffer &&) noexcept = default;
    RingBuffer(const RingBuffer &other) : RingBuffer(other.m_capacity)
    {
        for (qsizetype i = 0; i < other.m_capacity; ++i)
            m_data[i] = other.m_data[i];
        m_head = other.m_head;
        m_size = other.m_size;
        m_dropped = other.m_dropped;
    }
    RingBuffer &operator=(const RingBuffer &other)
    {
        if (this != &other)
            *this = RingBuffer(other);
        return *this;
    }

    qsizetype capacity() const { return m_capacity; }
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    bool isFull() const { return m_size == m_capacity; }
    // True once an element was overwritten: the ring no longer holds everything pushed.
    bool hasDropped() const { return m_dropped; }

    void push(const T &value)
    {
        if (m_capacity == 0) {
            m_dropped = true;
            return;
        }
        m_data[(m_head + m_size) % m_capacity] = value;
        if (m_size < m_capacity) {
            ++m_size;
        } else {
            m_head = (m_head + 1) % m_capacity;
            m_dropped = true;
        }
    }

    // 0 is the oldest element, size() - 1 the newest.
    const T &at(qsizetype i) const
    {
        Q_ASSERT(i >= 0 && i < m_size);
        return m_data[(m_head + i) % m_capacity];
    }
    T &at(qsizetype i)
    {
        Q_ASSERT(i >= 0 && i < m_size);
        return m_data[(m_head + i) % m_capacity];
    }
    const T &first() const { return at(0); }
    const T &last() const { return at(m_size - 1); }

    void clear()
    {
        m_head = 0;
        m_size = 0;
        m_dropped = false;
    }

    qsizetype memoryBytes() const { return m_capacity * qsizetype(sizeof(T)); }

private:
    std::unique_ptr<T[]> m_data;
    qsizetype m_capacity = 0;
    qsizetype m_head = 0;
    qsizetype m_size = 0;
    bool m_dropped = false;
};

} // namespace md
