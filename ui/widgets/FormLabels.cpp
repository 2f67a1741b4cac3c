#include "ui/widgets/FormLabels.h"

#include <QFormLayout>
#include <QWidget>

#include <algorithm>

namespace md {

void alignFormLabels(const QList<QFormLayout *> &forms)
{
    QList<QWidget *> labels;
    for (QFormLayout *form : forms) {
        for (int row = 0; form && row < form->rowCount(); ++row) {
            if (QLayoutItem *label = form->itemAt(row, QFormLayout::LabelRole); label && label->widget())
                labels.append(label->widget());
        }
    }
    int width = 0;
    for (QWidget *label : std::as_const(labels))
        width = std::max(width, label->sizeHint().width());
    for (QWidget *label : std::as_const(labels))
        label->setMinimumWidth(width);
}

} // namespace md
