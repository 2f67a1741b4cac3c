#pragma once

#include "AdminClient.h"
#include "ClusterClient.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;
class QToolButton;

namespace md {

class BrokerTableModel;
class TopicTableModel;

// One side of the window: a cluster's brokers and topics, served by a
// ClusterClient on its admin thread. The pane never blocks on Kafka.
class ClusterPane final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterPane)
public:
    ClusterPane(const QString &role, QWidget *parent = nullptr); // role: "Source" / "Target"
    ~ClusterPane() override;

    void connectTo(const ClusterConfig &config);
    ClusterClient *client() const { return m_client; }
    // Browse/admin calls for this cluster on their own admin thread; connected
    // by connectTo() alongside the ClusterClient.
    AdminClient *admin() const { return m_admin; }
    // Adds a page after the built-in tabs (Consumer groups, ...).
    void addTab(QWidget *page, const QString &title);
    TopicTableModel *topicModel() const { return m_topics; }
    QTableView *topicView() const { return m_topicView; }
    QString statusText() const;

private:
    void onState(ClusterClient::State state);
    void onMetadata(const ClusterMetadata &metadata);
    void onError(const QString &message);

    QString m_role;
    ClusterClient *m_client;
    AdminClient *m_admin;
    TopicTableModel *m_topics;
    BrokerTableModel *m_brokers;
    QSortFilterProxyModel *m_topicProxy;
    QLabel *m_title;
    QLabel *m_status;
    QLineEdit *m_filter;
    QTableView *m_topicView;
    QTableView *m_brokerView;
    QTabWidget *m_tabs;
    QToolButton *m_refresh;
};

} // namespace md
