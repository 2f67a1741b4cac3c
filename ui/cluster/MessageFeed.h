#pragma once

#include "engine/admin/AdminService.h"

#include <QObject>
#include <QTimer>

namespace md {

class MessageTableModel;

// Hands a search's matches to the table a slice per event-loop turn: a batch
// of tens of thousands of rows inserted at once (a sorted proxy places each)
// would hold the UI thread for tens of milliseconds.
class MessageFeed final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageFeed)
public:
    static constexpr int rowsPerTurn = 1000;

    MessageFeed(MessageTableModel *model, QObject *parent = nullptr);

    void add(const QList<KafkaMessage> &messages);
    void clear(); // drops what is not shown yet
    bool isEmpty() const { return m_next >= m_pending.size(); }

Q_SIGNALS:
    // Everything added so far is in the model.
    void drained();

private:
    void feed();

    MessageTableModel *m_model;
    QList<KafkaMessage> m_pending;
    qsizetype m_next = 0;
    QTimer m_timer;
};

} // namespace md
