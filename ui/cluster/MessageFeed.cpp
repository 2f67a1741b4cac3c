#include "ui/cluster/MessageFeed.h"

#include "model/tables/MessageTableModel.h"

namespace md {

MessageFeed::MessageFeed(MessageTableModel *model, QObject *parent) : QObject(parent), m_model(model)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &MessageFeed::feed);
}

void MessageFeed::add(const QList<KafkaMessage> &messages)
{
    if (messages.isEmpty())
        return;
    m_pending.append(messages);
    if (!m_timer.isActive())
        m_timer.start();
}

void MessageFeed::clear()
{
    m_timer.stop();
    m_pending.clear();
    m_next = 0;
}

void MessageFeed::feed()
{
    const qsizetype n = qMin<qsizetype>(rowsPerTurn, m_pending.size() - m_next);
    m_model->appendMessages(m_pending.mid(m_next, n));
    m_next += n;
    if (m_next < m_pending.size()) {
        m_timer.start();
        return;
    }
    m_pending.clear();
    m_next = 0;
    Q_EMIT drained();
}

} // namespace md
