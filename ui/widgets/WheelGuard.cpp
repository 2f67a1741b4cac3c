#include "ui/widgets/WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QObject>

namespace md {

namespace {

class WheelFilter final : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Wheel) {
            auto *w = static_cast<QWidget *>(watched);
            if (!w->hasFocus()) {
                // To the scroll area around it, as if the pointer were over the form.
                for (QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
                    if (auto *area = qobject_cast<QAbstractScrollArea *>(p)) {
                        QCoreApplication::sendEvent(area->viewport(), event);
                        break;
                    }
                }
                return true;
            }
        }
        return false;
    }
};

} // namespace

void guardWheel(QWidget *form)
{
    auto *filter = new WheelFilter(form);
    const auto guard = [filter](QWidget *w) {
        w->setFocusPolicy(Qt::StrongFocus); // the wheel alone never gives focus
        w->installEventFilter(filter);
    };
    for (QComboBox *c : form->findChildren<QComboBox *>())
        guard(c);
    for (QAbstractSpinBox *s : form->findChildren<QAbstractSpinBox *>())
        guard(s);
}

} // namespace md
