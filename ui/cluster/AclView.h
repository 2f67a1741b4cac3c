#pragma once

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace md {

class AclTableModel;
class AdminClient;

// The ACLs tab of a cluster pane: every ACL binding, read through the pane's
// AdminClient when the tab is first shown and on Refresh. A cluster without an
// authorizer is a fact to state, not an error.
class AclView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclView)
public:
    explicit AclView(AdminClient *admin, QWidget *parent = nullptr);
    ~AclView() override;

    void refresh();
    // A new connection: forget what was shown; read again now if visible, else when shown.
    void reset();

    AclTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString statusText() const;
    bool noAuthorizer() const { return m_noAuthorizer; }
    bool busy() const { return m_pending != 0; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void setStatus(const QString &text, bool error);

    AdminClient *m_admin;
    AclTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLabel *m_status;
    QToolButton *m_refresh;
    quint64 m_pending = 0;
    bool m_connected = false;
    bool m_loaded = false;
    bool m_noAuthorizer = false;
};

} // namespace md
