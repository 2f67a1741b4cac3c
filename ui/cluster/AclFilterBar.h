#pragma once

#include <QWidget>

class QComboBox;
class QLineEdit;

namespace md {

class AclFilterProxy;

// The row above the ACL table: principal, resource (type and name) and
// operation, each narrowing the table through the proxy as it is typed.
class AclFilterBar final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclFilterBar)
public:
    explicit AclFilterBar(AclFilterProxy *proxy, QWidget *parent = nullptr);

    void clear();

    QLineEdit *principalEdit() const { return m_principal; }
    QComboBox *resourceTypeBox() const { return m_resourceType; }
    QLineEdit *resourceNameEdit() const { return m_resourceName; }
    QComboBox *operationBox() const { return m_operation; }

private:
    AclFilterProxy *m_proxy;
    QLineEdit *m_principal;
    QComboBox *m_resourceType;
    QLineEdit *m_resourceName;
    QComboBox *m_operation;
};

} // namespace md
