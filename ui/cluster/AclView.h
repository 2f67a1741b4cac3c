#pragma once

#include "engine/admin/AdminClient.h"

#include <QPointer>
#include <QWidget>

class QAbstractButton;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
class QToolButton;

namespace md {

class AclBindingDialog;
class AclCheckPanel;
class AclFilterBar;
class AclFilterProxy;
class AclTableModel;

// The ACLs tab of a cluster pane: every ACL binding, read through the pane's
// AdminClient when the tab is first shown and on Refresh, narrowed by a filter
// row; "New binding…" (AclBindingDialog), "Delete…" on the selected rows
// (AclDeleteDialog) and "Check access…" (AclCheckPanel, answered from the
// bindings loaded). Every change goes through AdminClient and is followed by
// a refresh. A cluster without an authorizer is a fact to state, not an error:
// the actions are then disabled and say why.
class AclView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclView)
public:
    explicit AclView(AdminClient *admin, QWidget *parent = nullptr);
    ~AclView() override;

    void refresh();
    // A new connection: forget what was shown; read again now if visible, else when shown.
    void reset();

    // The actions, as their buttons trigger them (each does nothing while its button is disabled).
    void openNewBinding();
    void deleteSelected();
    void openAccessCheck();

    AclTableModel *model() const { return m_model; }
    AclFilterProxy *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    AclFilterBar *filterBar() const { return m_filters; }
    AclCheckPanel *checkPanel() const { return m_checkPanel; }
    AclBindingDialog *bindingDialog() const; // while open
    QPushButton *newBindingButton() const { return m_newBinding; }
    QPushButton *deleteButton() const { return m_delete; }
    QPushButton *checkAccessButton() const { return m_checkAccess; }
    QString statusText() const;
    QString clusterName() const;
    bool noAuthorizer() const { return m_noAuthorizer; }
    bool busy() const { return m_pending != 0 || m_change != 0; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    enum class Change { None, Create, Delete };

    void setStatus(const QString &text, bool error);
    void updateActions();
    void requestRules();
    void sendCreate(const AclEntry &binding);
    void sendDelete(const QList<AclEntry> &bindings);
    void selectBindings(const QList<AclEntry> &bindings);
    void onAcls(quint64 id, const QList<AclEntry> &acls);
    void onDone(quint64 id, AdminClient::Operation op);
    void onFailed(quint64 id, AdminClient::Operation op, const QString &error, const KafkaError &failure);

    AdminClient *m_admin;
    AclTableModel *m_model;
    AclFilterProxy *m_proxy;
    AclFilterBar *m_filters;
    QTableView *m_view;
    QLabel *m_status;
    QToolButton *m_refresh;
    QPushButton *m_newBinding;
    QPushButton *m_delete;
    QPushButton *m_checkAccess;
    QSplitter *m_splitter;
    AclCheckPanel *m_checkPanel;
    QPointer<AclBindingDialog> m_bindingDialog;

    quint64 m_pending = 0;      // listAcls
    quint64 m_change = 0;       // createAcls / deleteAcls, one at a time
    quint64 m_rulesRequest = 0; // aclRules, once per connection
    Change m_changeKind = Change::None;
    int m_changeCount = 0;
    QString m_changeText; // what the change did, said again after the refresh it causes
    QString m_cluster;    // the connected cluster's bootstrap servers, for confirmations
    QString m_listError;  // why the last read failed; empty after one succeeded
    bool m_connected = false;
    bool m_loaded = false;
    bool m_listed = false; // the table holds the cluster's bindings (the access check's input)
    bool m_refreshAgain = false;
    bool m_noAuthorizer = false;
};

} // namespace md
