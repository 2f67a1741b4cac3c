#pragma once

#include "engine/admin/AdminClient.h"
#include "engine/admin/ClusterClient.h"

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QTabWidget;
class QToolBar;
class QToolButton;

namespace md {

class AclView;
class BrokerTableModel;
class GroupsPanel;
class MessagesPanel;
class SchemasPanel;
class TopicDetails;
class TopicFilterModel;
class TopicTableModel;

// One side of the window: a cluster's brokers and topics, served by a
// ClusterClient on its admin thread, plus topic administration (create,
// delete, add partitions, edit configs) and ACLs through an AdminClient on
// another, and the subjects of the cluster's schema registry (SchemasPanel).
// The pane never blocks on Kafka or the registry.
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
    GroupsPanel *groupsPanel() const { return m_groupsPanel; }
    MessagesPanel *messagesPanel() const { return m_messagesPanel; }
    SchemasPanel *schemasPanel() const { return m_schemasPanel; }
    TopicTableModel *topicModel() const { return m_topics; }
    QTableView *topicView() const { return m_topicView; }
    TopicDetails *details() const { return m_details; }
    AclView *aclView() const { return m_acls; }
    QTabWidget *tabs() const { return m_tabs; }
    // "Source — eu": the role and the connection's alias.
    QString title() const;
    QString statusText() const;
    // The outcome of the last admin action, in plain words.
    QString actionStatusText() const;

    // The topic whose details are shown (empty: none).
    QString selectedTopic() const { return m_selected; }
    bool selectTopic(const QString &name); // false when the topic is not listed

    // Auto-refresh interval in ms (0 = off); one of refreshIntervals().
    static QList<int> refreshIntervals();
    int refreshInterval() const;
    void setRefreshInterval(int ms);
    QComboBox *refreshIntervalBox() const { return m_interval; }
    void refresh();

    // True while an admin action is in flight (its buttons are then disabled).
    bool adminBusy() const { return m_pendingAction != 0; }
    QAction *createTopicAction() const { return m_createAction; }
    QAction *deleteTopicAction() const { return m_deleteAction; }
    QAction *addPartitionsAction() const { return m_addPartitionsAction; }
    QAction *editConfigsAction() const { return m_editConfigsAction; }

    // The dialogs open non-modally (window-modal) as children of the pane; the
    // request is sent when one is accepted.
    void createTopic();
    void deleteSelectedTopic();
    void addPartitionsToSelected();
    void editSelectedConfigs();

Q_SIGNALS:
    // An admin action finished (ok: succeeded; message: what the status line says).
    void adminActionFinished(md::AdminClient::Operation op, bool ok, const QString &message);
    // "Watch lag" on a consumer group (the Consumer groups tab).
    void watchGroupRequested(const QString &groupId);

private:
    void onState(ClusterClient::State state);
    void onMetadata(const ClusterMetadata &metadata);
    void onError(const QString &message);
    void onAdminDone(quint64 id, AdminClient::Operation op);
    void onAdminFailed(quint64 id, AdminClient::Operation op, const QString &error);
    void onConfigs(quint64 id, const QString &topic, const QList<ConfigEntry> &configs);
    void onTopicSelectionChanged();
    void showTopic(const QString &name);
    void requestConfigs();
    void startAction(quint64 id, AdminClient::Operation op, const QString &topic, const QString &success,
                     const QString &failure);
    void setActionStatus(const QString &text, bool error);
    void updateActions();

    QString m_role;
    ClusterClient *m_client;
    AdminClient *m_admin;
    TopicTableModel *m_topics;
    BrokerTableModel *m_brokers;
    TopicFilterModel *m_topicProxy;
    QLabel *m_title;
    QLabel *m_status;
    QLabel *m_actionStatus;
    QLineEdit *m_filter;
    QTableView *m_topicView;
    QTableView *m_brokerView;
    QTabWidget *m_tabs;
    QToolButton *m_refresh;
    QComboBox *m_interval;
    QToolBar *m_toolbar;
    QSplitter *m_splitter;
    TopicDetails *m_details;
    AclView *m_acls;
    GroupsPanel *m_groupsPanel;
    MessagesPanel *m_messagesPanel;
    SchemasPanel *m_schemasPanel;
    QAction *m_createAction;
    QAction *m_deleteAction;
    QAction *m_addPartitionsAction;
    QAction *m_editConfigsAction;

    bool m_connected = false;    // connectTo was called
    QString m_selected;          // topic shown in the details
    QString m_selectWhenListed;  // a topic just created, selected once metadata lists it
    quint64 m_adminConnect = 0;  // AdminClient::connectTo's id
    quint64 m_configRequest = 0; // DescribeConfigs in flight (0: none)
    QString m_configTopic;       // its topic
    bool m_configsAgain = false; // ask again when the one in flight answers
    quint64 m_pendingAction = 0; // create/delete/add/alter in flight (0: none)
    AdminClient::Operation m_pendingOp = AdminClient::Operation::Connect;
    QString m_pendingTopic;
    QString m_pendingSuccess;
    QString m_pendingFailure;
};

} // namespace md
