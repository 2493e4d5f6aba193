"""Computer-vision programs as people write them with PyTorch on the CPU, without torchvision,
run under real torch and under ember (`import ember as torch`): what they print must be
identical. Hand-written transforms (uint8 HWC images to normalised CHW floats, flips, crops,
rotations), interpolation and padding modes, affine grids and grid sampling, VGG/ResNet/UNet
blocks (channels-last too), pooling with indices and unpooling, segmentation losses (ignore
index, dice, focal), box ops and NMS written with tensor ops, image statistics, forward hooks
and model summaries, state dicts and checkpoints, half precision batch norm, and the errors of
typical vision mistakes. Last-bit gaps (bilinear/bicubic arithmetic, conv and matmul) are
compared after rounding.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PRELUDE = "import math\nnn = torch.nn; F = torch.nn.functional\n"

PROGRAMS = {
    'totensor': PRELUDE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (6, 5, 3), dtype=torch.uint8)
print(img.dtype, img.shape, img.stride())
x = img.permute(2, 0, 1)
print(x.shape, x.stride(), x.is_contiguous())
f = x.float().div(255)
print(f.dtype, f.stride(), f[0, :2])
f2 = x.to(torch.float32) / 255.0
print(torch.equal(f, f2), f2.stride())
f3 = x.contiguous().to(dtype=torch.float16).div_(255)
print(f3.dtype, f3[1, 0])
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225])[:, None, None]
n = (f - mean) / std
print(n.shape, n.stride(), n[:, 0, 0])
n2 = f.sub(mean).div_(std)
print(torch.allclose(n, n2), n2.dtype)
back = (n * std + mean).mul(255).round().clamp(0, 255).to(torch.uint8)
print(torch.equal(back, x), back.dtype, back.stride())
print(img.float().mean(dim=(0, 1)), img.float().std(dim=(0, 1)))
print(img.double().mean((0, 1)).dtype)
b = torch.stack([x, x.flip(2)])
print(b.shape, b.dtype, b.float().mean(dim=(0, 2, 3)))
print(img.sum(), img.sum().dtype, img.max(), img.min(dim=0).values.shape)
print((img / 255).dtype, (img // 2).dtype, (img * 2).dtype, (img * 2)[0, 0])
''',
    'flipcrop': PRELUDE + r'''
torch.manual_seed(1)
x = torch.arange(2 * 3 * 6 * 7, dtype=torch.float32).reshape(2, 3, 6, 7)
def rand_crop(img, size):
    h, w = img.shape[-2:]
    th, tw = size
    i = torch.randint(0, h - th + 1, size=(1,)).item()
    j = torch.randint(0, w - tw + 1, size=(1,)).item()
    return img[..., i:i + th, j:j + tw]
for _ in range(3):
    c = rand_crop(x, (4, 4))
    print(c.shape, c.stride(), c.storage_offset(), c[0, 0, 0])
if torch.rand(1) < 0.5:
    x2 = torch.flip(x, dims=[-1])
else:
    x2 = x.flip(-1)
print(x2[0, 0, 0], x2.stride(), x2.is_contiguous())
print(torch.fliplr(x[0, 0])[0], torch.flipud(x[0, 0])[:, 0])
print(x.flip(-1, -2)[1, 2, 0])
r = torch.rot90(x, 1, dims=(2, 3)); print(r.shape, r.stride(), r[0, 0, 0])
r2 = torch.rot90(x, -1, [2, 3]); print(r2[0, 0, 0])
r3 = torch.rot90(x, 2, [-2, -1]); print(r3[0, 0, 0])
mask = torch.rand(2) < 0.5
print(mask)
y = torch.where(mask[:, None, None, None], x.flip(3), x)
print(y[:, 0, 0, :3])
# center crop
h, w = x.shape[-2:]
top = int(round((h - 4) / 2.0)); left = int(round((w - 5) / 2.0))
print(x[..., top:top + 4, left:left + 5].shape, top, left)
# random resized crop params
area = h * w
for _ in range(2):
    target_area = area * torch.empty(1).uniform_(0.08, 1.0).item()
    log_ratio = torch.log(torch.tensor((3 / 4, 4 / 3)))
    aspect = torch.exp(torch.empty(1).uniform_(log_ratio[0], log_ratio[1])).item()
    print(round(target_area, 4), round(aspect, 4))
print(torch.randperm(6), torch.randint(3, (2, 2)), torch.randint(0, 10, (3,), dtype=torch.uint8))
''',
    'interp': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(1, 2, 5, 6)
for mode in ("nearest", "nearest-exact"):
    for kw in (dict(scale_factor=2), dict(size=(7, 9)), dict(scale_factor=0.5), dict(size=3), dict(scale_factor=1.7)):
        y = F.interpolate(x, mode=mode, **kw)
        print(mode, kw, y.shape, y[0, 0, 0].round(decimals=4))
for mode in ("bilinear", "bicubic"):
    for ac in (False, True):
        for kw in (dict(scale_factor=2), dict(size=(3, 4)), dict(scale_factor=0.6)):
            y = F.interpolate(x, mode=mode, align_corners=ac, **kw)
            print(mode, ac, kw, y.shape, y[0, 1, 1].round(decimals=4))
for mode in ("bilinear", "bicubic"):
    y = F.interpolate(x, size=(2, 3), mode=mode, antialias=True, align_corners=False)
    print("aa", mode, y.round(decimals=4))
print(F.interpolate(x[0], scale_factor=2, mode="linear").shape)
print(F.interpolate(x, scale_factor=(2, 1.5), mode="nearest", recompute_scale_factor=True).shape)
print(F.interpolate(x, scale_factor=1.5, mode="bilinear", recompute_scale_factor=False).shape)
u = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True); print(u)
print(nn.Upsample(size=(4, 4)), nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(scale_factor=2))
print(u(x).shape)
xi = torch.randint(0, 255, (1, 1, 3, 3), dtype=torch.uint8)
print(F.interpolate(xi, scale_factor=2, mode="nearest"))
''',
    'pad': PRELUDE + r'''
x = torch.arange(12.).reshape(1, 1, 3, 4)
for mode in ("constant", "reflect", "replicate", "circular"):
    print(mode, F.pad(x, (1, 2, 2, 1), mode=mode))
print(F.pad(x, (1, 1), value=-1.0))
print(F.pad(x, (-1, 1, 0, -1)))
print(nn.ReflectionPad2d(1), nn.ReplicationPad2d((1, 0, 1, 0)), nn.ZeroPad2d(2), nn.ConstantPad2d(1, 3.5))
print(nn.ReflectionPad2d(1)(x)[0, 0, 0])
try:
    F.pad(x, (4, 4), mode="reflect")
except Exception as e:
    print(type(e).__name__, e)
try:
    F.pad(x[0, 0], (1, 1, 1, 1), mode="reflect")
except Exception as e:
    print(type(e).__name__, e)
try:
    F.pad(x, (1, 1, 1), mode="constant")
except Exception as e:
    print(type(e).__name__, e)
xi = torch.arange(6, dtype=torch.uint8).reshape(1, 1, 2, 3)
print(F.pad(xi, (1, 1), value=7))
print(F.pad(xi.float(), (1, 1), mode="reflect"))
xc = x.to(memory_format=torch.channels_last)
print(F.pad(xc, (1, 1, 1, 1), mode="reflect").stride(), F.pad(xc, (1, 1, 1, 1)).stride())
''',
    'grid': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(2, 3, 5, 6)
theta = torch.tensor([[[1.0, 0.1, 0.05], [-0.1, 0.9, 0.0]], [[0.8, 0.0, 0.2], [0.0, 1.2, -0.1]]])
for ac in (False, True):
    g = F.affine_grid(theta, x.size(), align_corners=ac)
    print(g.shape, g.stride(), g[0, 0, :2].round(decimals=4))
    for mode in ("bilinear", "nearest", "bicubic"):
        for pm in ("zeros", "border", "reflection"):
            y = F.grid_sample(x, g, mode=mode, padding_mode=pm, align_corners=ac)
            print(mode, pm, y.shape, y[1, 2, 1].round(decimals=4))
# rotation augmentation
angle = torch.tensor(30.0) * math.pi / 180
rot = torch.stack([torch.stack([torch.cos(angle), -torch.sin(angle), torch.tensor(0.)]),
                   torch.stack([torch.sin(angle), torch.cos(angle), torch.tensor(0.)])])
print(rot)
g = F.affine_grid(rot.unsqueeze(0).expand(2, 2, 3), (2, 3, 4, 4), align_corners=False)
print(F.grid_sample(x[:, :, :4, :4], g, align_corners=False)[0, 0].round(decimals=4))
try:
    F.affine_grid(theta, (2, 3, 5), align_corners=False)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.grid_sample(x, torch.zeros(2, 4, 4, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    F.affine_grid(theta[0], x.size())
except Exception as e:
    print(type(e).__name__, e)
t = theta.clone().requires_grad_()
gg = F.affine_grid(t, x.size(), align_corners=False)
F.grid_sample(x, gg, align_corners=False).sum().backward()
print(t.grad.round(decimals=3), gg.grad_fn.name())
''',
    'cnn': PRELUDE + r'''
torch.manual_seed(0)
class VGGBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.drop = nn.Dropout2d(0.2)
    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.conv2(x), inplace=True)
        return self.drop(self.pool(x))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(VGGBlock(3, 8), VGGBlock(8, 16))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(16, 10))
    def forward(self, x):
        return self.classifier(self.avgpool(self.features(x)))
m = Net()
print(m)
print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in m.parameters() if p.requires_grad))
for n, p in m.named_parameters():
    print(n, tuple(p.shape), p.dtype)
for n, b in m.named_buffers():
    print(n, b.shape, b.dtype)
x = torch.randn(4, 3, 16, 16)
out = m(x)
print(out.shape, out.round(decimals=3)[0])
loss = F.cross_entropy(out, torch.tensor([1, 2, 3, 4]))
loss.backward()
print(round(loss.item(), 4), m.features[0].conv1.weight.grad.shape, m.features[0].bn1.running_mean.round(decimals=4))
print(m.features[0].bn1.num_batches_tracked)
m.eval()
with torch.no_grad():
    print(m(x).round(decimals=3)[1])
print(m.training, m.features[0].drop.training)
print(len(list(m.modules())), [type(c).__name__ for c in m.children()])
print(m.features[1])
print(m.state_dict().keys())
''',
    'resnet': PRELUDE + r'''
torch.manual_seed(0)
class BasicBlock(nn.Module):
    expansion = 1
    def __init__(self, inplanes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))
    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)
class ResNet(nn.Module):
    def __init__(self, nc=5):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = BasicBlock(8, 8)
        self.layer2 = BasicBlock(8, 16, 2)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, nc)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1); nn.init.constant_(m.bias, 0)
    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)
m = ResNet()
print(m)
x = torch.randn(2, 3, 32, 32)
y = m(x)
print(y.round(decimals=3), y.grad_fn)
y.sum().backward()
print(m.conv1.weight.grad.abs().sum().round(decimals=2))
print(m.layer2.downsample[1].running_var.round(decimals=4))
m2 = m.to(memory_format=torch.channels_last)
xc = x.to(memory_format=torch.channels_last)
print(xc.stride(), m2.conv1.weight.stride())
yc = m2(xc)
print(yc.round(decimals=3), yc.stride())
feat = m2.conv1(xc); print(feat.stride(), feat.is_contiguous(), feat.is_contiguous(memory_format=torch.channels_last))
p = m2.maxpool(feat); print(p.stride())
''',
    'unet': PRELUDE + r'''
torch.manual_seed(0)
def double_conv(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                         nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(inplace=True))
class UNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.inc = double_conv(1, 4)
        self.down = nn.Sequential(nn.MaxPool2d(2), double_conv(4, 8))
        self.up = nn.ConvTranspose2d(8, 4, kernel_size=2, stride=2)
        self.conv = double_conv(8, 4)
        self.outc = nn.Conv2d(4, n_classes, kernel_size=1)
    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        x3 = self.up(x2)
        diffY = x1.size()[2] - x3.size()[2]
        diffX = x1.size()[3] - x3.size()[3]
        x3 = F.pad(x3, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        x = torch.cat([x1, x3], dim=1)
        return self.outc(self.conv(x))
m = UNet()
print(m)
x = torch.randn(2, 1, 9, 9)
out = m(x)
print(out.shape, out[0, :, 0, :3].round(decimals=3))
target = torch.randint(0, 3, (2, 9, 9))
target[0, 0, :4] = 255
crit = nn.CrossEntropyLoss(ignore_index=255)
loss = crit(out, target)
print(round(loss.item(), 4), loss.grad_fn)
loss.backward()
print(m.up.weight.grad.shape, m.up.weight.shape, m.up.bias.grad.round(decimals=3))
def dice_loss(logits, target, eps=1e-6):
    probs = logits.softmax(dim=1)
    oh = F.one_hot(target, num_classes=3).permute(0, 3, 1, 2).float()
    dims = (0, 2, 3)
    inter = torch.sum(probs * oh, dims)
    card = torch.sum(probs + oh, dims)
    dice = (2. * inter + eps) / (card + eps)
    return 1 - dice.mean(), dice
t2 = target.clamp(max=2)
dl, d = dice_loss(out, t2)
print(round(dl.item(), 4), d.round(decimals=4), dl.grad_fn)
print(F.one_hot(t2, 3).dtype, F.one_hot(t2, 3).shape)
pred = out.argmax(dim=1)
print(pred.shape, pred.dtype, (pred == t2).float().mean())
ct = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
print(ct, ct(torch.randn(1, 4, 5, 5)).shape)
print(ct(torch.randn(1, 4, 5, 5), output_size=[10, 10]).shape)
try:
    ct(torch.randn(1, 4, 5, 5), output_size=[12, 12])
except Exception as e:
    print(type(e).__name__, e)
''',
    'unpool': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(1, 2, 6, 6)
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
print(pool, unpool)
o, i = pool(x)
print(o.shape, i.dtype, i[0, 0])
u = unpool(o, i)
print(u[0, 0].round(decimals=3))
print(unpool(o, i, output_size=x.size()).shape)
print(F.max_unpool2d(o, i, 2, output_size=(7, 7)).shape)
o3, i3 = F.max_pool2d(x, 3, 2, padding=1, return_indices=True)
print(i3[0, 1])
o4, i4 = F.max_pool2d(x, 2, ceil_mode=True, return_indices=True, stride=4)
print(o4.shape, i4)
print(F.max_pool2d(x, 3, 1, dilation=2).shape)
print(nn.MaxPool2d(3, 2, 1, ceil_mode=True), nn.AvgPool2d(3, 2, 1, count_include_pad=False))
print(F.avg_pool2d(x, 3, 2, 1, count_include_pad=False)[0, 0].round(decimals=4))
print(F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, divisor_override=2)[0, 0].round(decimals=4))
print(F.adaptive_max_pool2d(x, (2, 3), return_indices=True)[1][0, 0])
print(F.adaptive_avg_pool2d(x, (4, 5))[0, 0].round(decimals=4))
print(nn.AdaptiveAvgPool2d((None, 2))(x).shape, nn.AdaptiveAvgPool2d((None, 2)))
print(F.lp_pool2d(x.abs(), 2, 2)[0, 0].round(decimals=4))
try:
    unpool(o, i, output_size=(9, 9))
except Exception as e:
    print(type(e).__name__, e)
xr = x.clone().requires_grad_()
o, i = F.max_pool2d(xr, 2, return_indices=True)
F.max_unpool2d(o * 2, i, 2).sum().backward()
print(xr.grad[0, 0])
xi = torch.randint(0, 9, (1, 1, 4, 4))
print(F.max_pool2d(xi.float(), 2))
try:
    print(F.max_pool2d(xi, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(F.avg_pool2d(xi, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(F.adaptive_avg_pool2d(xi, 1))
except Exception as e:
    print(type(e).__name__, e)
''',
    'boxes': PRELUDE + r'''
torch.manual_seed(0)
def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
def box_iou(b1, b2):
    a1, a2 = box_area(b1), box_area(b2)
    lt = torch.max(b1[:, None, :2], b2[:, :2])
    rb = torch.min(b1[:, None, 2:], b2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = a1[:, None] + a2 - inter
    return inter / union
def nms(boxes, scores, thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i.item())
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        idx = (ious <= thr).nonzero().squeeze(1)
        order = order[idx + 1]
    return torch.tensor(keep, dtype=torch.long)
xy = torch.rand(8, 2) * 50
wh = torch.rand(8, 2) * 30 + 5
boxes = torch.cat([xy, xy + wh], dim=1)
scores = torch.rand(8)
print(boxes.round(decimals=2))
iou = box_iou(boxes, boxes)
print(iou.round(decimals=4))
print(nms(boxes, scores, 0.3), nms(boxes, scores, 0.0))
s, o = torch.sort(scores, descending=True, stable=True); print(s, o)
def cxcywh_to_xyxy(x):
    cx, cy, w, h = x.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)
def xyxy_to_cxcywh(x):
    x0, y0, x1, y1 = x.unbind(-1)
    return torch.stack([(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0], dim=-1)
print(torch.allclose(cxcywh_to_xyxy(xyxy_to_cxcywh(boxes)), boxes, atol=1e-5))
def giou(b1, b2):
    iou = box_iou(b1, b2)
    lt = torch.min(b1[:, None, :2], b2[:, :2]); rb = torch.max(b1[:, None, 2:], b2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[..., 0] * wh[..., 1]
    a1, a2 = box_area(b1), box_area(b2)
    lt2 = torch.max(b1[:, None, :2], b2[:, :2]); rb2 = torch.min(b1[:, None, 2:], b2[:, 2:])
    w2 = (rb2 - lt2).clamp(min=0); inter = w2[..., 0] * w2[..., 1]
    union = a1[:, None] + a2 - inter
    return iou - (area - union) / area
print(giou(boxes[:3], boxes[3:6]).round(decimals=4))
# batched nms trick
idxs = torch.tensor([0, 1, 0, 1, 2, 2, 0, 1])
max_coord = boxes.max()
offsets = idxs.to(boxes) * (max_coord + 1)
b2 = boxes + offsets[:, None]
print(nms(b2, scores, 0.5))
# clip boxes
clipped = boxes.clone()
clipped[:, 0::2] = clipped[:, 0::2].clamp(min=0, max=40)
clipped[:, 1::2].clamp_(0, 30)
print(clipped.round(decimals=2))
keep = (boxes[:, 2] - boxes[:, 0] > 20) & (boxes[:, 3] - boxes[:, 1] > 20)
print(keep, torch.where(keep)[0], keep.nonzero(as_tuple=True))
topk = scores.topk(3); print(topk, topk.indices.dtype)
# anchors
sizes = torch.tensor([32., 64.]); ratios = torch.tensor([0.5, 1., 2.])
hr = torch.sqrt(ratios); wr = 1 / hr
ws = (wr[:, None] * sizes[None, :]).view(-1); hs = (hr[:, None] * sizes[None, :]).view(-1)
base = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
print(base.round())
sx = torch.arange(0, 3, dtype=torch.float32) * 16
sy, sxx = torch.meshgrid(sx, sx, indexing="ij")
shifts = torch.stack((sxx.reshape(-1), sy.reshape(-1), sxx.reshape(-1), sy.reshape(-1)), dim=1)
anchors = (shifts.view(-1, 1, 4) + base.view(1, -1, 4)).reshape(-1, 4)
print(anchors.shape, anchors[7])
print(torch.meshgrid(sx, sx)[0].shape)
''',
    'stats': PRELUDE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (3, 8, 8), dtype=torch.uint8)
h = torch.histc(img.float(), bins=8, min=0, max=255); print(h, h.dtype)
print(torch.histc(img[0].float(), bins=4))
print(torch.bincount(img.flatten(), minlength=256).shape, torch.bincount(img[0, 0].long()))
print(torch.bincount(torch.tensor([0, 2, 2, 5]), weights=torch.tensor([0.5, 1., 2., 3.])))
print(torch.bincount(torch.tensor([0, 2, 2, 5]), weights=torch.tensor([0.5, 1., 2., 3.], dtype=torch.float64)).dtype)
try:
    torch.histc(img, bins=4)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bincount(img.float().flatten())
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([-1, 2]))
except Exception as e:
    print(type(e).__name__, e)
f = img.float() / 255
print(f.mean(dim=[1, 2]), f.std(dim=[1, 2]), f.var(dim=(1, 2), unbiased=False))
print(f.view(3, -1).mean(1), f.view(3, -1).std(1, correction=0))
print(torch.std_mean(f, dim=(1, 2)))
print(f.amax(dim=(1, 2)), f.amin((-2, -1)), f.aminmax())
print(torch.quantile(f[0], 0.5), torch.median(f[0]), f[0].flatten().kthvalue(5))
print(torch.histogram(f[0], bins=4))
print(torch.histogram(f[0], bins=torch.tensor([0., 0.25, 0.5, 1.0]), density=True))
# confusion matrix via bincount
pred = torch.randint(0, 3, (20,)); tgt = torch.randint(0, 3, (20,))
cm = torch.bincount(tgt * 3 + pred, minlength=9).reshape(3, 3)
print(cm)
iou = torch.diag(cm) / (cm.sum(0) + cm.sum(1) - torch.diag(cm))
print(iou, iou.dtype, iou.nanmean())
acc = cm.diag().sum() / cm.sum(); print(acc)
print(torch.unique(img[0], return_counts=True)[1].sum(), torch.unique(tgt, sorted=True, return_inverse=True))
# running mean/std over a dataset
mean = torch.zeros(3); sq = torch.zeros(3); n = 0
for _ in range(3):
    b = torch.rand(4, 3, 5, 5)
    mean += b.sum(dim=(0, 2, 3)); sq += (b ** 2).sum(dim=[0, 2, 3]); n += b.numel() // 3
mean /= n; std = (sq / n - mean ** 2).sqrt()
print(mean, std)
''',
    'hooks': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 6, 3), nn.Flatten(), nn.Linear(6 * 2 * 2, 3))
feats = {}
def get_activation(name):
    def hook(model, input, output):
        feats[name] = output.detach()
    return hook
hs = [m[0].register_forward_hook(get_activation("conv1")), m[3].register_forward_hook(get_activation("conv2"))]
x = torch.randn(2, 3, 10, 10)
y = m(x)
for k, v in feats.items():
    print(k, v.shape, v.requires_grad, v.mean().round(decimals=4))
for h in hs: h.remove()
feats.clear(); m(x); print(len(feats))
def pre(mod, inp):
    print("pre", type(mod).__name__, [t.shape for t in inp])
h = m[5].register_forward_pre_hook(pre)
m(x); h.remove()
grads = {}
def bh(mod, gin, gout):
    grads["out"] = gout[0].shape
    grads["in"] = [None if g is None else g.shape for g in gin]
h = m[3].register_full_backward_hook(bh)
m(x.requires_grad_()).sum().backward()
print(grads); h.remove()
print(m)
for name, mod in m.named_modules():
    print(repr(name), type(mod).__name__)
def summary(model, inp):
    rows = []
    def hook(mod, i, o):
        rows.append((type(mod).__name__, tuple(o.shape), sum(p.numel() for p in mod.parameters())))
    hh = [c.register_forward_hook(hook) for c in model.children()]
    model(inp)
    for h in hh: h.remove()
    for r in rows: print(f"{r[0]:<12}{str(r[1]):<20}{r[2]:>8,}")
summary(m, x)
print(f"Total params: {sum(p.numel() for p in m.parameters()):,}")
y.retain_grad() if y.requires_grad else None
# forward hook modifying output
h = m[1].register_forward_hook(lambda mod, i, o: o * 0)
print(m(x).round(decimals=4)); h.remove()
h = m[0].register_forward_hook(lambda mod, args, kwargs, out: print("kw", kwargs), with_kwargs=True)
m(x); h.remove()
print(m[0]._forward_hooks, m[0]._forward_pre_hooks)
''',
    'mistakes': PRELUDE + r'''
torch.manual_seed(0)
def t(f):
    try:
        r = f(); print("ok", r.shape if hasattr(r, "shape") else r)
    except Exception as e:
        print(type(e).__name__, str(e))
conv = nn.Conv2d(3, 8, 3)
img = torch.rand(32, 32, 3)
t(lambda: conv(img))
t(lambda: conv(img.unsqueeze(0)))
t(lambda: conv(img.permute(2, 0, 1)))
t(lambda: conv(torch.rand(2, 3, 2, 2)))
t(lambda: conv(torch.randint(0, 255, (1, 3, 8, 8), dtype=torch.uint8)))
t(lambda: conv(torch.rand(1, 3, 8, 8, dtype=torch.float64)))
t(lambda: conv(torch.rand(1, 3, 8, 8).half()))
t(lambda: conv(torch.rand(1, 4, 8, 8)))
t(lambda: conv(torch.rand(1, 1, 3, 8, 8)))
fc = nn.Linear(128, 10)
t(lambda: fc(torch.rand(4, 8, 4, 4).flatten(1)[:, :100]))
t(lambda: fc(torch.rand(4, 8, 4, 4).view(4, -1)))
t(lambda: fc(torch.rand(4, 8, 4, 4)))
t(lambda: fc(torch.rand(4, 8, 4, 4).view(-1, 100)))
bn = nn.BatchNorm2d(3)
t(lambda: bn(torch.rand(3, 8, 8)))
t(lambda: bn(torch.rand(2, 4, 8, 8)))
t(lambda: bn(torch.rand(1, 3, 1, 1)))
t(lambda: nn.BatchNorm1d(3)(torch.rand(2, 3, 4, 4)))
t(lambda: nn.BatchNorm2d(3).eval()(torch.rand(1, 3, 1, 1)))
ce = nn.CrossEntropyLoss()
logits = torch.randn(2, 3, 4, 4)
t(lambda: ce(logits, torch.rand(2, 4, 4)))
t(lambda: ce(logits, torch.randint(0, 3, (2, 4, 4)).float()))
t(lambda: ce(logits, torch.randint(0, 3, (2, 4, 4)).int()))
t(lambda: ce(logits, torch.randint(0, 3, (2, 1, 4, 4))))
t(lambda: ce(logits, torch.randint(0, 3, (2, 5, 5))))
t(lambda: ce(logits, torch.full((2, 4, 4), 5)))
t(lambda: ce(logits, torch.rand(2, 3, 4, 4)))
t(lambda: ce(logits, torch.rand(2, 3, 5, 4)))
t(lambda: ce(logits.permute(0, 2, 3, 1), torch.randint(0, 3, (2, 4, 4))))
t(lambda: F.nll_loss(logits.log_softmax(1), torch.randint(0, 3, (2, 4, 4)).float()))
t(lambda: nn.MaxPool2d(2)(torch.rand(1, 1, 1, 1)))
t(lambda: nn.MaxPool2d(3, padding=2)(torch.rand(1, 1, 5, 5)))
t(lambda: nn.AvgPool2d(2)(torch.rand(3, 1)))
t(lambda: F.interpolate(torch.rand(3, 8, 8), scale_factor=2, mode="bilinear"))
t(lambda: F.interpolate(torch.rand(1, 3, 8, 8), size=4, scale_factor=2))
t(lambda: F.interpolate(torch.rand(1, 3, 8, 8)))
t(lambda: F.interpolate(torch.rand(1, 3, 8, 8), scale_factor=2, mode="nearest", align_corners=True))
t(lambda: F.interpolate(torch.rand(1, 3, 8, 8), scale_factor=2, mode="linear"))
t(lambda: F.interpolate(torch.rand(1, 3, 8, 8), scale_factor=2, mode="bogus"))
t(lambda: F.interpolate(torch.rand(1, 3, 8, 8), size=(4, 4, 4)))
t(lambda: torch.cat([torch.rand(1, 3, 8, 8), torch.rand(1, 3, 7, 8)], dim=1))
t(lambda: torch.cat([torch.rand(1, 3, 8, 8), torch.rand(3, 8, 8)], dim=1))
t(lambda: nn.ConvTranspose2d(3, 4, 2)(torch.rand(1, 4, 5, 5)))
t(lambda: nn.Conv2d(3, 8, 3, groups=2))
t(lambda: nn.Conv2d(3, 8, 3, padding="same", stride=2))
t(lambda: nn.Conv2d(3, 8, 3, padding="valid")(torch.rand(1, 3, 5, 5)))
t(lambda: nn.Conv2d(3, 8, 4, padding="same")(torch.rand(1, 3, 5, 5)))
t(lambda: torch.rand(2, 3, 4, 4).view(2, -1, 5))
t(lambda: torch.rand(2, 3, 4, 4).permute(0, 2, 3, 1).view(2, -1))
t(lambda: nn.Dropout2d(0.5)(torch.rand(3, 4)))
t(lambda: nn.Dropout2d(1.5))
''',
    'save': PRELUDE + r'''
import io, tempfile, os
torch.manual_seed(0)
m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
m(torch.randn(2, 3, 6, 6))
sd = m.state_dict()
print(list(sd.keys()))
print(sd["1.num_batches_tracked"], sd["1.running_mean"])
buf = io.BytesIO(); torch.save(sd, buf); buf.seek(0)
sd2 = torch.load(buf, weights_only=True)
print(type(sd2).__name__, all(torch.equal(sd[k], sd2[k]) for k in sd))
m2 = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
print(m2.load_state_dict(sd2))
bad = dict(sd2); bad.pop("5.bias"); bad["extra.weight"] = torch.zeros(1)
print(m2.load_state_dict(bad, strict=False))
try:
    m2.load_state_dict(bad)
except Exception as e:
    print(type(e).__name__, e)
wrong = dict(sd2); wrong["0.weight"] = torch.zeros(4, 3, 5, 5)
try:
    m2.load_state_dict(wrong)
except Exception as e:
    print(type(e).__name__, e)
# DataParallel prefix stripping
dp = {"module." + k: v for k, v in sd.items()}
stripped = {k.replace("module.", "", 1): v for k, v in dp.items()}
print(m2.load_state_dict(stripped))
ck = {"epoch": 3, "model": m.state_dict(), "opt": torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9).state_dict(), "best": 0.93}
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "ck.pth")
    torch.save(ck, p)
    c = torch.load(p, map_location="cpu")
    print(c["epoch"], c["best"], c["opt"])
    torch.save(m, os.path.join(d, "full.pt"))
    try:
        torch.load(os.path.join(d, "full.pt"))
    except Exception as e:
        print(type(e).__name__, str(e)[:120])
print(m2[1].running_var.round(decimals=4))
# half model
mh = m2.half(); print(mh[0].weight.dtype, mh[1].running_mean.dtype, mh[1].num_batches_tracked.dtype)
print(mh.state_dict()["1.num_batches_tracked"])
''',
    'print': PRELUDE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (2, 3, 4), dtype=torch.uint8)
print(img)
print(img.float() / 255)
print((img.float() / 255).half())
print((img.float() / 255).bfloat16())
print(img.permute(2, 0, 1).float().div(255).sub(0.5).div(0.25))
print(torch.randn(1, 2, 3, 3) * 1000)
print(torch.randn(2, 2) * 1e-5)
x = torch.randn(1, 3, 4, 4).to(memory_format=torch.channels_last)
print(x)
print(x.stride(), x.contiguous().stride())
e = torch.empty(2, 3, 4, 5, memory_format=torch.channels_last); print(e.stride())
print(torch.zeros(1, 3, 1, 1).to(memory_format=torch.channels_last).stride())
print(torch.zeros(2, 1, 4, 4).to(memory_format=torch.channels_last).stride())
print(torch.zeros(2, 3, 4, 4).permute(0, 2, 3, 1).is_contiguous(memory_format=torch.channels_last))
y = x + 1; print(y.stride()); z = x * torch.ones(1, 3, 1, 1); print(z.stride())
print((x + torch.randn(1, 3, 4, 4)).stride(), (torch.randn(1, 3, 4, 4) + x).stride())
print(x.relu().stride(), F.relu(x).stride(), x.sigmoid().stride(), torch.cat([x, x], 1).stride(), torch.cat([x, x]).stride())
print(x.sum(1).stride(), x.mean(dim=(2, 3), keepdim=True).stride(), x.flatten(1).stride(), x.view(1, 3, 16).shape if x.is_contiguous() else "nc")
try:
    x.view(1, 48)
except Exception as e:
    print(type(e).__name__, e)
print(nn.BatchNorm2d(3)(x).stride(), nn.Conv2d(3, 2, 1)(x).stride(), nn.MaxPool2d(2)(x).stride(), F.interpolate(x, scale_factor=2).stride())
print(nn.AdaptiveAvgPool2d(1)(x).stride(), nn.AdaptiveAvgPool2d(2)(x).stride(), F.avg_pool2d(x, 2).stride())
print(nn.ConvTranspose2d(3, 2, 2, 2)(x).stride(), nn.GroupNorm(1, 3)(x).stride(), F.dropout2d(x, 0.5).stride(), torch.clone(x).stride())
print(x.to(torch.float64).stride(), x.half().stride(), x.new_zeros(x.shape).stride(), torch.zeros_like(x).stride(), torch.empty_like(x, memory_format=torch.contiguous_format).stride())
print(F.pixel_shuffle(x.repeat(1, 4, 1, 1), 2).stride(), x.repeat(1, 4, 1, 1).stride(), x[:, :2].stride(), x.softmax(1).stride(), x.log_softmax(1).stride())
''',
    'warn': PRELUDE + r'''
import warnings
def w(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = f()
            print("ok", tuple(r.shape) if hasattr(r, "shape") else r)
        except Exception as e:
            print(type(e).__name__, e)
    for x in ws:
        print("  W", x.category.__name__, str(x.message).split(" (Triggered internally")[0])
torch.manual_seed(0)
x = torch.randn(1, 3, 8, 8)
w(lambda: nn.Dropout2d(0.5)(torch.randn(3, 8, 8)))
w(lambda: F.dropout2d(torch.randn(3, 8), 0.5))
w(lambda: nn.Dropout2d(0.5)(torch.randn(2, 3, 4, 4, 4)))
w(lambda: nn.Dropout3d(0.5)(torch.randn(2, 3, 4, 4)))
w(lambda: F.interpolate(x, scale_factor=2, mode="bilinear"))
w(lambda: F.upsample(x, scale_factor=2))
w(lambda: F.upsample_bilinear(x, scale_factor=2))
w(lambda: F.upsample_nearest(x, scale_factor=2))
w(lambda: nn.UpsamplingBilinear2d(scale_factor=2)(x))
w(lambda: F.affine_grid(torch.eye(2, 3)[None], (1, 3, 4, 4)))
w(lambda: F.grid_sample(x, torch.zeros(1, 2, 2, 2)))
w(lambda: F.softmax(x))
w(lambda: F.log_softmax(x))
w(lambda: nn.Softmax()(x))
w(lambda: nn.Softmax2d()(x))
w(lambda: F.softmin(x))
w(lambda: nn.CrossEntropyLoss(size_average=False))
w(lambda: nn.CrossEntropyLoss(reduce=False)(x, torch.zeros(1, 8, 8, dtype=torch.long)))
w(lambda: F.mse_loss(x, torch.zeros(1, 3, 8)))
w(lambda: F.mse_loss(x, torch.zeros(3, 8, 8)))
w(lambda: F.l1_loss(x, torch.zeros(1, 1, 8, 8)))
w(lambda: F.binary_cross_entropy(torch.rand(2, 1, 4, 4), torch.rand(2, 4, 4)))
w(lambda: F.binary_cross_entropy_with_logits(torch.rand(2, 1, 4, 4), torch.rand(2, 4, 4)))
w(lambda: F.binary_cross_entropy(torch.rand(2, 4), torch.rand(2, 4), weight=torch.rand(3)))
w(lambda: nn.init.kaiming_normal_(torch.empty(0, 3)))
w(lambda: nn.init.xavier_uniform_(torch.empty(3)))
w(lambda: nn.init.normal(torch.empty(3)))
w(lambda: torch.meshgrid(torch.arange(3), torch.arange(2)))
w(lambda: F.sigmoid(x))
w(lambda: F.tanh(x))
w(lambda: x.max_pool2d if hasattr(x, "max_pool2d") else None)
w(lambda: nn.Conv2d(3, 4, 3, padding="same", dilation=2)(x))
w(lambda: nn.Conv2d(3, 4, 4, padding="same")(x))
w(lambda: nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect")(x))
w(lambda: nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect"))
w(lambda: F.max_pool2d(x, 2, padding=2))
w(lambda: nn.MaxPool2d(2, return_indices=True)(x)[1].dtype)
w(lambda: nn.LocalResponseNorm(2)(x))
w(lambda: nn.InstanceNorm2d(3)(x))
w(lambda: nn.InstanceNorm2d(3, affine=True)(torch.randn(3, 8, 8)))
w(lambda: nn.InstanceNorm2d(4)(x))
w(lambda: nn.InstanceNorm2d(3)(torch.randn(1, 3, 1, 1)))
w(lambda: nn.GroupNorm(2, 3))
w(lambda: nn.LayerNorm([8, 8])(x))
w(lambda: nn.LayerNorm(3)(x))
w(lambda: torch.load)
w(lambda: x.byte().float().mean())
w(lambda: torch.tensor(x))
w(lambda: torch.as_tensor(x.numpy()).shape)
w(lambda: torch.from_numpy(np.zeros((2, 2, 3), dtype=np.uint8)).permute(2, 0, 1).float().div(255))
w(lambda: torch.from_numpy(np.zeros((2, 2, 3), dtype=np.uint8)[:, ::-1]))
w(lambda: torch.tensor(np.zeros((2, 2, 3), dtype=np.uint8)[:, ::-1]).stride())
w(lambda: torch.as_tensor(np.zeros((2, 2, 3), dtype=np.uint8)[:, ::-1].copy()).stride())
w(lambda: torch.from_numpy(np.zeros((2, 2), dtype=np.uint16)).dtype)
w(lambda: torch.from_numpy(np.zeros((2, 2), dtype=np.float32).T).stride())
a = np.zeros((2, 2), dtype=np.float32); a.setflags(write=False)
w(lambda: torch.from_numpy(a))
w(lambda: torch.as_tensor(a))
''',
    'seg': PRELUDE + r'''
torch.manual_seed(0)
logits = torch.randn(2, 4, 5, 5, requires_grad=True)
target = torch.randint(0, 4, (2, 5, 5)); target[1, 2:, 3] = -100; target[0, 0, 0] = 255
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
for red in ("mean", "sum", "none"):
    l = F.cross_entropy(logits, target.masked_fill(target == 255, -100), weight=w, reduction=red)
    print(red, l.shape, l.round(decimals=4) if l.dim() == 0 else l[1, 2].round(decimals=4))
l = F.cross_entropy(logits, target, ignore_index=255, label_smoothing=0.1) if False else None
tt = target.clone(); tt[tt == -100] = 255
l = F.cross_entropy(logits, tt, ignore_index=255, label_smoothing=0.1, weight=w)
print(l.round(decimals=4), l.grad_fn.name())
l.backward(); print(logits.grad[0, :, 0, 0], logits.grad.sum().abs() < 1e-5)
# all ignored
allig = torch.full((2, 5, 5), 255)
print(F.cross_entropy(logits, allig, ignore_index=255))
print(F.cross_entropy(logits, allig, ignore_index=255, reduction="sum"))
# soft targets (probabilities) on segmentation
probs = torch.softmax(torch.randn(2, 4, 5, 5), dim=1)
print(F.cross_entropy(logits, probs).round(decimals=4), F.cross_entropy(logits, probs, label_smoothing=0.2).round(decimals=4))
# focal loss
def focal(logits, target, gamma=2.0, alpha=0.25):
    ce = F.cross_entropy(logits, target, reduction="none", ignore_index=255)
    pt = torch.exp(-ce)
    return (alpha * (1 - pt) ** gamma * ce).mean()
print(focal(logits, tt).round(decimals=4))
def sigmoid_focal(inputs, targets, alpha=0.25, gamma=2):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).sum()
bin_t = (torch.rand(2, 1, 5, 5) > 0.5).float()
bl = torch.randn(2, 1, 5, 5)
print(sigmoid_focal(bl, bin_t).round(decimals=4))
print(F.binary_cross_entropy_with_logits(bl, bin_t, pos_weight=torch.tensor([3.0])).round(decimals=4))
print(F.binary_cross_entropy_with_logits(logits.detach(), probs, pos_weight=torch.ones(4, 1, 1) * 2).round(decimals=4))
# soft dice, binary
def soft_dice(pred, tgt, smooth=1.):
    pred = pred.sigmoid().view(pred.size(0), -1); tgt = tgt.view(tgt.size(0), -1)
    inter = (pred * tgt).sum(1)
    return 1 - ((2. * inter + smooth) / (pred.sum(1) + tgt.sum(1) + smooth)).mean()
print(soft_dice(bl, bin_t).round(decimals=4))
# IoU per class for segmentation, written with tensor ops
pred = logits.argmax(1)
valid = tt != 255
ious = []
for c in range(4):
    p = (pred == c) & valid; g = (tt == c) & valid
    inter = (p & g).sum().float(); union = (p | g).sum().float()
    ious.append((inter / union).item() if union > 0 else float("nan"))
print([round(i, 4) for i in ious], torch.tensor(ious).nanmean())
print(F.nll_loss(F.log_softmax(logits, 1), target, reduction="none")[1, 2])
print(nn.NLLLoss2d() if hasattr(nn, "NLLLoss2d") else None)
oh = torch.zeros(2, 4, 5, 5).scatter_(1, tt.clamp(max=3).unsqueeze(1), 1.0)
print(oh.sum(1).unique(), oh[0, :, 0, 0])
try:
    F.one_hot(tt)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.one_hot(tt.clamp(0, 3).float())
except Exception as e:
    print(type(e).__name__, e)
print(F.one_hot(tt.clamp(0, 3), -1).shape)
''',
    'patches': PRELUDE + r'''
torch.manual_seed(0)
x = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8)
p = x.unfold(2, 4, 4).unfold(3, 4, 4)
print(p.shape, p.stride())
p2 = p.permute(0, 2, 3, 1, 4, 5).reshape(2, -1, 3 * 4 * 4)
print(p2.shape, p2[0, 1, :5])
u = F.unfold(x, kernel_size=4, stride=4)
print(u.shape, u[0, :5, 1])
print(torch.equal(u.transpose(1, 2), p2))
f = F.fold(u, output_size=(8, 8), kernel_size=4, stride=4)
print(torch.equal(f, x))
u2 = F.unfold(x, 3, padding=1, dilation=1, stride=2); print(u2.shape)
print(F.fold(u2, (8, 8), 3, padding=1, stride=2)[0, 0, :2])
print(nn.Unfold(kernel_size=(2, 3)), nn.Fold(output_size=(4, 5), kernel_size=(2, 2)))
pe = nn.Conv2d(3, 16, kernel_size=4, stride=4)
e = pe(x).flatten(2).transpose(1, 2)
print(e.shape, e.stride(), e.is_contiguous())
cls = torch.zeros(1, 1, 16).expand(2, -1, -1)
t = torch.cat((cls, e), dim=1); print(t.shape, t.stride())
print(F.pixel_shuffle(torch.arange(16.).reshape(1, 4, 2, 2), 2))
print(F.pixel_unshuffle(torch.arange(16.).reshape(1, 1, 4, 4), 2)[0, :, 0])
print(nn.PixelShuffle(2), nn.PixelUnshuffle(2))
try:
    F.pixel_shuffle(torch.randn(1, 3, 2, 2), 2)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.unfold(torch.randn(3, 4), 2)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.fold(u, output_size=(9, 9), kernel_size=4, stride=4)
except Exception as e:
    print(type(e).__name__, e)
# window partition (Swin)
def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)
xs = x.permute(0, 2, 3, 1)
try:
    window_partition(xs, 4)
except Exception as e:
    print(type(e).__name__, e)
print(window_partition(xs.contiguous(), 4).shape)
sh = torch.roll(xs, shifts=(-2, -2), dims=(1, 2)); print(sh[0, 0, 0], sh.stride())
img_mask = torch.zeros((1, 8, 8, 1))
cnt = 0
for h in (slice(0, -4), slice(-4, -2), slice(-2, None)):
    for w_ in (slice(0, -4), slice(-4, -2), slice(-2, None)):
        img_mask[:, h, w_, :] = cnt; cnt += 1
mw = window_partition(img_mask, 4).view(-1, 16)
am = mw.unsqueeze(1) - mw.unsqueeze(2)
am = am.masked_fill(am != 0, float(-100.0)).masked_fill(am == 0, float(0.0))
print(am.shape, am[3, 5, :8])
# depthwise separable
dw = nn.Conv2d(3, 3, 3, padding=1, groups=3, bias=False); pw = nn.Conv2d(3, 6, 1)
print(dw, dw.weight.shape, pw(dw(x / 100)).shape, pw(dw(x / 100))[0, 0, 0, :3].round(decimals=3))
''',
    'dtypes': PRELUDE + r'''
torch.manual_seed(0)
def t(f):
    try:
        r = f(); print("ok", r.dtype, r.shape, r.flatten()[:4].float().round(decimals=2))
    except Exception as e:
        print(type(e).__name__, str(e))
x = torch.randn(1, 3, 6, 6)
for dt in (torch.float16, torch.bfloat16, torch.float64):
    print(dt)
    c = nn.Conv2d(3, 4, 3).to(dt)
    t(lambda: c(x.to(dt)))
    t(lambda: nn.ConvTranspose2d(3, 2, 2, 2).to(dt)(x.to(dt)))
    t(lambda: nn.BatchNorm2d(3).to(dt)(x.to(dt)))
    t(lambda: nn.BatchNorm2d(3)(x.to(dt)))
    t(lambda: F.max_pool2d(x.to(dt), 2))
    t(lambda: F.avg_pool2d(x.to(dt), 2))
    t(lambda: F.adaptive_avg_pool2d(x.to(dt), 1))
    t(lambda: F.interpolate(x.to(dt), scale_factor=2))
    t(lambda: F.interpolate(x.to(dt), scale_factor=2, mode="bilinear"))
    t(lambda: F.grid_sample(x.to(dt), torch.zeros(1, 2, 2, 2, dtype=dt), align_corners=False))
    t(lambda: F.pad(x.to(dt), (1, 1, 1, 1), mode="reflect"))
    t(lambda: F.cross_entropy(x.to(dt), torch.zeros(1, 6, 6, dtype=torch.long)))
    t(lambda: nn.GroupNorm(1, 3).to(dt)(x.to(dt)))
    t(lambda: nn.InstanceNorm2d(3)(x.to(dt)))
    t(lambda: F.unfold(x.to(dt), 2))
t(lambda: nn.Conv2d(3, 4, 3)(x.double()))
t(lambda: nn.Conv2d(3, 4, 3).double()(x))
t(lambda: nn.Conv2d(3, 4, 3)(x.half()))
t(lambda: nn.ConvTranspose2d(3, 4, 3)(x.double()))
t(lambda: nn.BatchNorm2d(3).double()(x))
t(lambda: nn.BatchNorm2d(3).half()(x))
t(lambda: F.grid_sample(x, torch.zeros(1, 2, 2, 2, dtype=torch.float64)))
t(lambda: F.conv2d(x.long(), torch.ones(1, 3, 1, 1).long()))
t(lambda: F.conv2d(x, torch.ones(1, 3, 1, 1), torch.ones(1).double()))
t(lambda: F.max_pool2d(x.long(), 2))
t(lambda: F.interpolate(x.long(), scale_factor=2))
t(lambda: F.interpolate(x.to(torch.uint8), scale_factor=2))
t(lambda: F.interpolate(x.int(), scale_factor=2))
t(lambda: F.interpolate(x.to(torch.uint8), scale_factor=2, mode="nearest-exact"))
t(lambda: F.interpolate(x.long(), scale_factor=2, mode="bilinear"))
t(lambda: F.pad(x.long(), (1, 1, 1, 1), mode="reflect"))
t(lambda: F.pad(x.bool(), (1, 1, 1, 1), mode="replicate"))
t(lambda: F.pad(x.bool(), (1, 1, 1, 1)))
t(lambda: F.pad(x.to(torch.uint8), (1, 1, 1, 1), mode="circular"))
t(lambda: F.adaptive_avg_pool2d(x.long(), 2))
t(lambda: F.adaptive_max_pool2d(x.long(), 2))
t(lambda: torch.flip(x.to(torch.uint8), [3]))
t(lambda: F.avg_pool2d(x.to(torch.uint8), 2))
t(lambda: F.max_pool2d(x.to(torch.uint8), 2))
t(lambda: F.max_pool2d(x.to(torch.int8), 2))
t(lambda: F.max_pool2d(x.bool(), 2))
''',
    'bnhalf': PRELUDE + r'''
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    for trial in range(3):
        x = (torch.randn(4, 3, 5, 5) * 3 + 1).to(dt)
        for pd in (dt, torch.float32, None):
            w = None if pd is None else (torch.rand(3) + 0.5).to(pd)
            b = None if pd is None else torch.randn(3).to(pd)
            rm = torch.rand(3).to(pd or dt); rv = (torch.rand(3) + 1).to(pd or dt)
            y, sm, si = torch.native_batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5)
            print(dt, pd, sm.dtype, sm, si, rm, rv)
            print(y[1, :, 2])
            y2 = F.batch_norm(x, rm, rv, w, b, training=False)
            print(y2[0, :, 1])
            print(F.instance_norm(x, weight=w, bias=b)[0, :, 2])
''',
    'inhalf': PRELUDE + r'''
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    x = (torch.randn(2, 3, 5, 5) * 3 + 1).to(dt)
    w = (torch.rand(3) + 0.5).to(dt); b = torch.randn(3).to(dt)
    print(F.instance_norm(x)[1])
    print(F.instance_norm(x, weight=w, bias=b)[1])
    print(F.instance_norm(x, weight=w.float(), bias=b.float())[1])
    print(nn.InstanceNorm2d(3).to(dt)(x)[0, 1])
    print(nn.BatchNorm2d(3).to(dt)(x)[0, 1])
    print(nn.BatchNorm2d(3)(x)[0, 2])
''',
    'uint8_resize': PRELUDE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (2, 3, 11, 13), dtype=torch.uint8)
for mode in ("bilinear", "bicubic"):
    for aa in (False, True):
        for ac in (False, True):
            for kw in (dict(size=(5, 6)), dict(size=(23, 17)), dict(size=(11, 4)), dict(scale_factor=0.37), dict(scale_factor=1.6), dict(size=(3, 40))):
                y = F.interpolate(img, mode=mode, antialias=aa, align_corners=ac, **kw)
                if mode == "bicubic" and not aa and (y.shape[2] > 11 or y.shape[3] > 13):
                    continue        # (enlarging: a strict xfail of its own)
                y = F.interpolate(img, mode=mode, antialias=aa, align_corners=ac, **kw)
                print(mode, aa, ac, kw, y.shape, y.dtype, y.sum(dim=(2, 3)).tolist(), y[1, 2, 0, :6].tolist())
# a torchvision-style resize of an HWC uint8 image
hwc = torch.randint(0, 256, (37, 29, 3), dtype=torch.uint8)
chw = hwc.permute(2, 0, 1).unsqueeze(0)
r = F.interpolate(chw, size=(16, 12), mode="bilinear", antialias=True, align_corners=False)
print(r.shape, r.stride(), r[0, :, 5, 5])
rc = F.interpolate(chw.contiguous(memory_format=torch.channels_last), size=(16, 12), mode="bilinear", antialias=True)
print(rc.stride(), torch.equal(r, rc))
print(F.interpolate(chw, scale_factor=0.25, mode="bicubic", antialias=True)[0, 1, 2])
print(F.interpolate(img[:, :1], size=(200, 3), mode="bilinear", antialias=True)[0, 0, ::40])
print(F.interpolate(torch.full((1, 1, 4, 4), 255, dtype=torch.uint8), size=(7, 7), mode="bicubic", antialias=True))
print(F.interpolate(torch.tensor([[[[0, 255, 0, 255]]]], dtype=torch.uint8), size=(1, 9), mode="bilinear"))
''',
    'train': PRELUDE + r'''
torch.manual_seed(0)
X = torch.randint(0, 256, (16, 12, 12, 3), dtype=torch.uint8)
Y = torch.randint(0, 4, (16,))
mean = torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1); std = torch.tensor([0.25, 0.25, 0.25]).view(1, 3, 1, 1)
def augment(x):
    x = x.permute(0, 3, 1, 2).float().div(255)
    flip = torch.rand(x.size(0)) < 0.5
    x[flip] = x[flip].flip(-1)
    x = F.pad(x, (2, 2, 2, 2), mode="reflect")
    i, j = torch.randint(0, 5, (2,)).tolist()
    x = x[:, :, i:i + 12, j:j + 12]
    return (x - mean) / std
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Dropout(0.2), nn.Linear(8, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4, nesterov=True)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
for epoch in range(4):
    model.train()
    perm = torch.randperm(16)
    tot = 0.0; correct = 0
    for k in range(0, 16, 8):
        idx = perm[k:k + 8]
        xb = augment(X[idx]); yb = Y[idx]
        out = model(xb)
        loss = crit(out, yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=2.0)
        opt.step()
        tot += loss.item() * xb.size(0)
        correct += (out.argmax(1) == yb).sum().item()
    sched.step()
    print(epoch, round(tot / 16, 3), correct, round(sched.get_last_lr()[0], 5))
model.eval()
with torch.no_grad():
    logits = model(augment(X[:4]))
    probs = logits.softmax(-1)
    conf, pred = probs.max(1)
    print(pred, conf.round(decimals=2), torch.topk(probs, 2, dim=1).indices)
print(model[1].running_mean.round(decimals=2), model[1].num_batches_tracked)
''',
    'misc': PRELUDE + r'''
torch.manual_seed(0)
# gaussian blur written by hand
def gaussian_kernel(k, sigma):
    ax = torch.arange(k, dtype=torch.float32) - (k - 1) / 2
    g = torch.exp(-ax ** 2 / (2 * sigma ** 2)); g = g / g.sum()
    return g[:, None] * g[None, :]
k = gaussian_kernel(5, 1.0)
print(k.sum(), k[2].round(decimals=4))
img = torch.rand(1, 3, 8, 8)
w = k.expand(3, 1, 5, 5)
print(w.shape, w.stride(), w.is_contiguous())
blur = F.conv2d(F.pad(img, (2, 2, 2, 2), mode="reflect"), w, groups=3)
print(blur.shape, blur[0, 0, 0].round(decimals=3))
# sobel edges
sx = torch.tensor([[-1., 0., 1.], [-2., 0., 2.], [-1., 0., 1.]])
gray = (img * torch.tensor([0.299, 0.587, 0.114]).view(1, 3, 1, 1)).sum(1, keepdim=True)
gx = F.conv2d(gray, sx.view(1, 1, 3, 3), padding=1); gy = F.conv2d(gray, sx.t().reshape(1, 1, 3, 3), padding=1)
mag = torch.sqrt(gx ** 2 + gy ** 2)
print(mag.shape, mag.max().round(decimals=3), torch.atan2(gy, gx)[0, 0, 1, :3].round(decimals=3))
# color jitter by hand
def adjust_brightness(x, f): return (x * f).clamp(0, 1)
def adjust_contrast(x, f):
    m = (x * torch.tensor([0.299, 0.587, 0.114]).view(-1, 1, 1)).sum(0).mean()
    return (f * x + (1 - f) * m).clamp(0, 1)
def rgb_to_grayscale(x): return (0.2989 * x[0] + 0.587 * x[1] + 0.114 * x[2]).unsqueeze(0)
x0 = img[0]
print(adjust_brightness(x0, 1.3)[0, 0, :3], adjust_contrast(x0, 0.5)[1, 1, :3], rgb_to_grayscale(x0).shape)
def rgb2hsv(rgb):
    r, g, b = rgb.unbind(0)
    maxc, _ = rgb.max(0); minc = rgb.min(0).values
    eqc = maxc == minc
    cr = maxc - minc
    ones = torch.ones_like(maxc)
    s = cr / torch.where(eqc, ones, maxc)
    cr_divisor = torch.where(eqc, ones, cr)
    rc = (maxc - r) / cr_divisor; gc = (maxc - g) / cr_divisor; bc = (maxc - b) / cr_divisor
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (2.0 + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (4.0 + gc - rc)
    h = torch.fmod((hr + hg + hb) / 6.0 + 1.0, 1.0)
    return torch.stack((h, s, maxc))
hsv = rgb2hsv(x0); print(hsv[:, 0, :3].round(decimals=4), hsv.dtype)
# mixup / cutmix
lam = torch.distributions.Beta(torch.tensor([0.4]), torch.tensor([0.4])).sample().item()
print(round(lam, 4))
xb = torch.rand(4, 3, 8, 8); yb = F.one_hot(torch.tensor([0, 1, 2, 1]), 3).float()
idx = torch.randperm(4)
mixed = lam * xb + (1 - lam) * xb[idx]; ym = lam * yb + (1 - lam) * yb[idx]
print(mixed[0, 0, 0, :3].round(decimals=4), ym)
H = W = 8
cut = math.sqrt(1 - lam); ch, cw = int(H * cut), int(W * cut)
cy, cx = torch.randint(H, (1,)).item(), torch.randint(W, (1,)).item()
y1, y2 = max(cy - ch // 2, 0), min(cy + ch // 2, H); x1, x2 = max(cx - cw // 2, 0), min(cx + cw // 2, W)
xc = xb.clone(); xc[:, :, y1:y2, x1:x2] = xb[idx, :, y1:y2, x1:x2]
print(y1, y2, x1, x2, (xc != xb).float().mean().round(decimals=4))
# random erasing
e = xb[0].clone(); e[:, 2:5, 1:4] = torch.empty((3, 3, 3), dtype=torch.float32).normal_()
print(e[0, 2, :5].round(decimals=3))
# make_grid by hand
grid = xb.view(2, 2, 3, 8, 8).permute(2, 0, 3, 1, 4).reshape(3, 16, 16)
print(grid.shape, grid.stride(), torch.equal(grid[:, 8:, :8], xb[2]))
print((grid.mul(255).add_(0.5).clamp_(0, 255).permute(1, 2, 0).to(torch.uint8))[0, :2])
''',
    'mistakes2': PRELUDE + r'''
torch.manual_seed(0)
def t(f):
    try:
        r = f(); print("ok", r.shape if hasattr(r, "shape") else r)
    except Exception as e:
        print(type(e).__name__, str(e))
x = torch.rand(2, 3, 8, 8)
t(lambda: nn.MaxUnpool2d(2)(x, torch.zeros(2, 3, 8, 8)))
t(lambda: nn.MaxUnpool2d(2)(x, torch.zeros(2, 3, 8, 8, dtype=torch.long)))
t(lambda: nn.MaxUnpool2d(2)(x, torch.zeros(2, 3, 4, 4, dtype=torch.long)))
t(lambda: F.grid_sample(x, torch.rand(2, 8, 8, 2), mode="area"))
t(lambda: F.grid_sample(x, torch.rand(2, 8, 8, 2), padding_mode="circular"))
t(lambda: F.grid_sample(x, torch.rand(3, 8, 8, 2)))
t(lambda: F.affine_grid(torch.rand(2, 3, 3), (2, 3, 8, 8), align_corners=False))
t(lambda: F.pad(x, (1, 1), mode="bogus"))
t(lambda: F.pad(x, (1, 1, 1, 1, 1, 1, 1, 1, 1, 1)))
t(lambda: F.pad(x, (9, 9), mode="circular"))
t(lambda: F.pad(x, (1, 1), mode="replicate", value=1.0))
t(lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, output_padding=2))
t(lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, output_padding=2)(x))
t(lambda: nn.Conv2d(3, 4, 9)(x))
t(lambda: nn.Conv2d(3, 4, (3, 3, 3))(x))
t(lambda: nn.AdaptiveAvgPool2d((2, 2, 2))(x))
t(lambda: nn.AdaptiveAvgPool2d(0)(x))
t(lambda: nn.AdaptiveMaxPool2d(3)(torch.rand(2, 3, 0, 8)))
t(lambda: F.max_pool2d(x, 0))
t(lambda: F.max_pool2d(x, 2, stride=0))
t(lambda: F.max_pool2d(x, 3, padding=2))
t(lambda: F.avg_pool2d(x, 2, padding=2))
t(lambda: F.max_pool2d(x, 9))
t(lambda: nn.Flatten()(torch.rand(3)))
t(lambda: nn.Linear(192, 10)(nn.Flatten()(x)))
t(lambda: nn.Linear(192, 10)(nn.Flatten(0)(x)))
t(lambda: nn.Linear(191, 10)(x.view(x.size(0), -1)))
t(lambda: nn.Unflatten(1, (3, 8, 8))(torch.rand(2, 190)))
t(lambda: torch.cat([x, x.permute(0, 2, 3, 1)], 1))
t(lambda: torch.stack([x, x[:1]]))
t(lambda: x.permute(0, 2, 1))
t(lambda: x.permute(0, 2, 2, 1))
t(lambda: x.transpose(1, 4))
t(lambda: x.flip(4))
t(lambda: x.flip(1, 1))
t(lambda: torch.rot90(x, 1, (1, 1)))
t(lambda: torch.rot90(x, 1, (0,)))
t(lambda: x.unfold(2, 9, 1))
t(lambda: x[:, :, ::-1])
t(lambda: torch.randint(0, 0, (2,)))
t(lambda: torch.randint(5, 3, (2,)))
t(lambda: F.one_hot(torch.tensor([0, 3]), 3))
t(lambda: F.one_hot(torch.tensor([-1, 2]), 3))
t(lambda: torch.histc(torch.rand(4), bins=0))
t(lambda: torch.histc(torch.rand(4), bins=4, min=2, max=1))
t(lambda: torch.bincount(torch.tensor([[1, 2]])))
t(lambda: torch.bincount(torch.tensor([1, 2]), minlength=-1))
t(lambda: torch.bincount(torch.tensor([1, 2]), weights=torch.rand(3)))
t(lambda: F.cross_entropy(torch.rand(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4)), weight=torch.rand(4)))
t(lambda: F.cross_entropy(torch.rand(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4)), ignore_index=3, reduction="mean"))
t(lambda: F.cross_entropy(torch.rand(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4)), reduction="avg"))
t(lambda: F.binary_cross_entropy(torch.rand(2, 1, 4, 4) * 2, torch.rand(2, 1, 4, 4)))
t(lambda: F.binary_cross_entropy(torch.rand(2, 1, 4, 4), torch.randint(0, 2, (2, 1, 4, 4))))
t(lambda: F.binary_cross_entropy_with_logits(torch.rand(2, 1, 4, 4), torch.randint(0, 2, (2, 1, 4, 4))))
t(lambda: nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))(torch.rand(2, 1, 4, 4), torch.rand(2, 1, 4, 4)))
t(lambda: F.mse_loss(torch.rand(2, 3), torch.rand(2, 3).long()))
t(lambda: torch.load)
t(lambda: nn.Sequential(nn.Conv2d(3, 4, 3))[1])
t(lambda: nn.Sequential(nn.Conv2d(3, 4, 3)).conv)
t(lambda: nn.Conv2d(3, 4, 3).weight.grad.shape)
t(lambda: torch.no_grad()(lambda: 1)())
m = nn.Conv2d(3, 4, 3)
t(lambda: m.load_state_dict({"weight": torch.rand(4, 3, 3, 3)}))
t(lambda: m.load_state_dict({"weight": torch.rand(4, 3, 3, 3), "bias": torch.rand(5)}))
t(lambda: m.to("cuda:0") if False else m.to(torch.float16).weight.dtype)
''',
    'cl_grad': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                  nn.ConvTranspose2d(4, 2, 2, stride=2), nn.Upsample(scale_factor=2, mode="nearest"))
m = m.to(memory_format=torch.channels_last)
x = torch.randn(2, 3, 6, 6).to(memory_format=torch.channels_last).requires_grad_()
y = m(x)
print(y.shape, y.stride(), y.is_contiguous(memory_format=torch.channels_last))
y.sum().backward()
print(x.grad.stride(), x.grad.is_contiguous(memory_format=torch.channels_last))
for n, p in m.named_parameters():
    print(n, p.grad.stride(), p.stride())
print(x.grad[0, :, 0, 0].round(decimals=4))
# freezing a backbone
backbone = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
head = nn.Linear(4, 2)
for p in backbone.parameters():
    p.requires_grad = False
model = nn.Sequential(backbone, head)
print(sum(p.numel() for p in model.parameters() if p.requires_grad), sum(p.numel() for p in model.parameters()))
out = model(torch.randn(2, 3, 5, 5))
print(out.requires_grad, out.grad_fn.name())
out.sum().backward()
print(backbone[0].weight.grad, head.weight.grad.shape)
backbone.requires_grad_(True); print(backbone[0].weight.requires_grad)
opt = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)
print(len(opt.param_groups[0]["params"]))
# init
def init_weights(m):
    if isinstance(m, nn.Conv2d):
        nn.init.kaiming_uniform_(m.weight, a=math.sqrt(5)); nn.init.zeros_(m.bias)
    elif isinstance(m, nn.Linear):
        nn.init.trunc_normal_(m.weight, std=0.02); nn.init.constant_(m.bias, 0.1)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.ones_(m.weight); nn.init.zeros_(m.bias)
print(model.apply(init_weights) is model)
print(backbone[0].weight[0, 0].round(decimals=4), head.weight.round(decimals=4), head.bias)
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("relu"), nn.init._calculate_fan_in_and_fan_out(backbone[0].weight))
w = torch.empty(3, 5); nn.init.orthogonal_(w); print(((w @ w.t()) - torch.eye(3)).abs().max() < 1e-5)
nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("tanh")); print(w.std().round(decimals=3))
''',
    'repr': PRELUDE + r'''
torch.manual_seed(0)
class SEBlock(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Sequential(nn.Linear(c, c // r, bias=False), nn.ReLU(inplace=True), nn.Linear(c // r, c, bias=False), nn.Sigmoid())
    def forward(self, x):
        b, c, _, _ = x.size()
        y = self.pool(x).view(b, c)
        return x * self.fc(y).view(b, c, 1, 1).expand_as(x)
class Custom(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("anchors", torch.zeros(3, 2))
        self.blocks = nn.ModuleList([SEBlock(8) for _ in range(2)])
        self.heads = nn.ModuleDict({"cls": nn.Conv2d(8, 3, 1), "box": nn.Conv2d(8, 4, 1)})
        self.act = nn.LeakyReLU(0.1)
        self.norm = nn.GroupNorm(2, 8)
        self.ln = nn.LayerNorm([8, 4, 4], elementwise_affine=False)
    def extra_repr(self):
        return "num_blocks=2"
    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        x = self.act(self.norm(x)) * self.scale
        return {k: h(x) for k, h in self.heads.items()}
m = Custom()
print(m)
print(repr(m.heads), str(m.blocks[0].fc[3]))
out = m(torch.randn(2, 8, 4, 4))
print({k: v.shape for k, v in out.items()})
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_buffers()], list(m.state_dict().keys()))
print(m.get_submodule("blocks.1.fc.0"), m.get_parameter("heads.cls.bias").shape)
print(nn.Conv2d(3, 4, (3, 5), stride=(2, 1), padding=(1, 2), dilation=2, groups=1, bias=False, padding_mode="circular"))
print(nn.ConvTranspose2d(4, 4, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=1))
print(nn.MaxPool2d((2, 3), stride=(1, 2), padding=1, dilation=(1, 2), return_indices=True, ceil_mode=True))
print(nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False, track_running_stats=False))
print(nn.Dropout2d(p=0.3, inplace=True), nn.AdaptiveMaxPool2d((3, None)), nn.AvgPool2d(2, ceil_mode=True, divisor_override=3))
print(nn.Upsample(scale_factor=(2.0, 1.5), mode="bicubic", align_corners=False), nn.Upsample(size=5, mode="nearest-exact"))
print(nn.InstanceNorm2d(3, affine=True, track_running_stats=True), nn.SyncBatchNorm(4), nn.LocalResponseNorm(3))
print(nn.Softmax2d(), nn.Hardswish(), nn.SiLU(inplace=True), nn.Mish(), nn.GELU(approximate="tanh"), nn.PReLU(3))
print(nn.Identity(3, unused="x"), nn.ChannelShuffle(2), nn.Fold((4, 4), 2, stride=2), nn.CrossEntropyLoss(ignore_index=255, label_smoothing=0.1))
''',
    'keypoints': PRELUDE + r'''
torch.manual_seed(0)
hm = torch.randn(2, 4, 6, 7)
B, K, H, W = hm.shape
flat = hm.view(B, K, -1)
val, idx = flat.max(dim=-1)
ys, xs = idx // W, idx % W
print(val.round(decimals=3), ys, xs, idx.dtype)
print(torch.unravel_index(idx, (H, W)))
ys2 = torch.div(idx, W, rounding_mode="floor"); print(torch.equal(ys, ys2))
coords = torch.stack([xs, ys], dim=-1).float()
print(coords.shape, coords[0])
sm = F.softmax(flat * 5, dim=-1).view(B, K, H, W)
gx = torch.arange(W, dtype=torch.float32); gy = torch.arange(H, dtype=torch.float32)
ex = (sm.sum(2) * gx).sum(-1); ey = (sm.sum(3) * gy).sum(-1)
print(ex.round(decimals=3), ey.round(decimals=3))
# gaussian target heatmap
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
target = torch.exp(-((xx - 3) ** 2 + (yy - 2) ** 2) / (2 * 1.5 ** 2))
print(target.dtype, target[2].round(decimals=3))
# local maxima via max_pool (CenterNet)
pooled = F.max_pool2d(hm, 3, stride=1, padding=1)
keep = (pooled == hm).float()
peaks = hm * keep
scores, inds = torch.topk(peaks.view(B, -1), 5)
cls = torch.div(inds, H * W, rounding_mode="trunc"); rem = inds % (H * W)
print(scores.round(decimals=3), cls, rem // W, rem % W)
# gather features at indices
feat = torch.randn(B, 8, H * W)
g = feat.gather(2, rem.unsqueeze(1).expand(-1, 8, -1))
print(g.shape, g[0, 0].round(decimals=3))
# roi crop via grid_sample (ROI align-ish)
img = torch.arange(64, dtype=torch.float32).view(1, 1, 8, 8)
box = torch.tensor([1.0, 2.0, 5.0, 6.0])
x1, y1, x2, y2 = box
ys_ = torch.linspace(y1, y2, 3); xs_ = torch.linspace(x1, x2, 3)
gy_, gx_ = torch.meshgrid(ys_, xs_, indexing="ij")
grid = torch.stack([gx_ / 7 * 2 - 1, gy_ / 7 * 2 - 1], -1).unsqueeze(0)
print(F.grid_sample(img, grid, align_corners=True))
print(torch.linspace(y1, y2, 3).dtype, torch.linspace(0, 1, 5, dtype=torch.float64))
# argmax of segmentation to color palette
palette = torch.tensor([[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]], dtype=torch.uint8)
seg = hm[0].argmax(0)
colored = palette[seg]
print(colored.shape, colored.dtype, colored[0, :3])
print(torch.unique(seg, return_counts=True))
''',
    'half_ops': PRELUDE + r'''
torch.manual_seed(0)
def t(name, f):
    try:
        r = f(); print(name, r.dtype, r.flatten()[:12])
    except Exception as e:
        print(name, type(e).__name__, str(e)[:100])
for dt in (torch.bfloat16, torch.float16):
    x = (torch.randn(2, 4, 7, 7) * 2).to(dt)
    t("avg", lambda: F.avg_pool2d(x, 3, 2, 1))
    t("avgc", lambda: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False, ceil_mode=True))
    t("aavg", lambda: F.adaptive_avg_pool2d(x, (3, 2)))
    t("aavg1", lambda: F.adaptive_avg_pool2d(x, 1))
    t("mean", lambda: x.mean((2, 3)))
    t("max", lambda: F.max_pool2d(x, 2))
    t("amax", lambda: F.adaptive_max_pool2d(x, 3))
    t("near", lambda: F.interpolate(x, scale_factor=1.5))
    t("gn", lambda: F.group_norm(x, 2))
    t("gnw", lambda: nn.GroupNorm(2, 4).to(dt)(x))
    t("ln", lambda: F.layer_norm(x, (7,)))
    t("lnw", lambda: nn.LayerNorm([4, 7, 7]).to(dt)(x))
    t("lrn", lambda: F.local_response_norm(x, 3))
    t("lsm2d", lambda: F.log_softmax(x, dim=1))
    t("ce", lambda: F.cross_entropy(x, torch.randint(0, 4, (2, 7, 7))))
    t("cen", lambda: F.cross_entropy(x, torch.randint(0, 4, (2, 7, 7)), reduction="none")[0, 0])
    t("bce", lambda: F.binary_cross_entropy_with_logits(x, (x > 0).to(dt)))
    t("pad", lambda: F.pad(x, (1, 1, 1, 1), mode="reflect")[0, 0, 0])
    t("unf", lambda: F.unfold(x, 3)[0, :, 0])
    t("ps", lambda: F.pixel_shuffle(x, 2)[0, 0, 0])
    t("hs", lambda: F.hardswish(x))
    t("silu", lambda: F.silu(x))
    t("gelu", lambda: F.gelu(x))
    t("mish", lambda: F.mish(x))
    t("drop", lambda: F.dropout2d(x, 0.5, training=True)[0, :, 0, 0])
    t("std", lambda: x.std(dim=(2, 3)))
    t("var_mean", lambda: torch.var_mean(x, dim=(0, 2, 3))[0])
    t("norm", lambda: x.norm(dim=1))
    t("normalize", lambda: F.normalize(x, dim=1))
    t("cos", lambda: F.cosine_similarity(x[0], x[1], dim=0))
''',
    'save2': PRELUDE + r'''
import io
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)
img = torch.randint(0, 256, (4, 4, 3), dtype=torch.uint8)
view = x[:, 1:]
buf = io.BytesIO(); torch.save({"x": x, "img": img, "view": view, "perm": img.permute(2, 0, 1)}, buf); buf.seek(0)
d = torch.load(buf)
print(d["x"].stride(), d["x"].is_contiguous(memory_format=torch.channels_last), torch.equal(d["x"], x))
print(d["img"].dtype, d["view"].stride(), d["view"].storage_offset(), d["perm"].stride())
print(d["view"].untyped_storage().nbytes(), d["perm"].untyped_storage().data_ptr() == d["img"].untyped_storage().data_ptr())
m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4)).to(memory_format=torch.channels_last)
sd = m.state_dict()
print(sd["0.weight"].stride(), sd["1.running_mean"].stride())
buf = io.BytesIO(); torch.save(sd, buf); buf.seek(0)
sd2 = torch.load(buf, weights_only=True)
print(sd2["0.weight"].stride())
m2 = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4))
print(m2.load_state_dict(sd2, assign=True), m2[0].weight.stride(), type(m2[0].weight).__name__, m2[0].weight.requires_grad)
m3 = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4))
m3.load_state_dict(sd2); print(m3[0].weight.stride())
mh = nn.Conv2d(3, 4, 3).half()
try:
    print(mh.load_state_dict(nn.Conv2d(3, 4, 3).state_dict()), mh.weight.dtype)
except Exception as e:
    print(type(e).__name__, e)
sd_meta = m.state_dict()
print(getattr(sd_meta, "_metadata", None))
ema = {k: v.clone().float() for k, v in m.state_dict().items()}
for k, v in m.state_dict().items():
    if v.dtype.is_floating_point:
        ema[k].mul_(0.99).add_(v, alpha=0.01)
print(ema["1.num_batches_tracked"].dtype, ema["0.bias"].round(decimals=4))
print(m.load_state_dict({k: v for k, v in ema.items()}, strict=True))
print(m[1].num_batches_tracked, m[1].num_batches_tracked.dtype)
''',
    'pool_edges': PRELUDE + r'''
torch.manual_seed(0)
x = torch.tensor([[[[1., 1., 2., 2.], [1., 1., 2., 2.], [3., 3., float("nan"), 0.], [3., 3., 0., 0.]]]])
o, i = F.max_pool2d(x, 2, return_indices=True); print(o, i)
xr = torch.ones(1, 1, 4, 4, requires_grad=True)
F.max_pool2d(xr, 2).sum().backward(); print(xr.grad)
xr.grad = None; F.max_pool2d(xr, 3, stride=1).sum().backward(); print(xr.grad)
xr.grad = None; F.avg_pool2d(xr, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=True).sum().backward(); print(xr.grad)
y = torch.arange(25.).view(1, 1, 5, 5)
print(F.avg_pool2d(y, 2, stride=2, ceil_mode=True), F.avg_pool2d(y, 2, stride=2, ceil_mode=True, padding=1, count_include_pad=True))
print(F.max_pool2d(y, 2, stride=2, ceil_mode=True, padding=1, return_indices=True))
print(F.max_pool2d(y, 2, dilation=2, return_indices=True)[1])
print(F.adaptive_max_pool2d(y, (3, 2), return_indices=True))
print(F.adaptive_avg_pool2d(y, (3, 4)))
ni = torch.tensor([[[[-float("inf"), -float("inf")], [-float("inf"), -float("inf")]]]])
print(F.max_pool2d(ni, 2, return_indices=True), F.avg_pool2d(ni, 2))
print(F.max_pool2d(torch.full((1, 1, 2, 2), float("nan")), 2, return_indices=True))
print(F.max_pool1d(torch.arange(10.).view(1, 1, 10), 3, stride=2, padding=1, return_indices=True))
print(F.max_pool3d(torch.arange(27.).view(1, 1, 3, 3, 3), 2, return_indices=True)[1])
print(F.lp_pool2d(y, 1, 2), F.lp_pool2d(y, float("inf"), 2) if False else "")
z = torch.randn(1, 2, 7, 9)
print(nn.FractionalMaxPool2d(2, output_size=(4, 5), _random_samples=torch.rand(1, 2, 2))(z).round(decimals=4))
print(F.max_unpool2d(*F.max_pool2d(y, 2, stride=2, return_indices=True), 2, stride=2, output_size=(5, 5)))
''',
    'intstats': PRELUDE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (3, 5, 6), dtype=torch.uint8)
def t(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e))
t(lambda: img.mean())
t(lambda: img.mean(dtype=torch.float32))
t(lambda: img.float().mean((1, 2)))
t(lambda: img.std())
t(lambda: img.var(dim=0).shape)
t(lambda: img.median())
t(lambda: img.median(dim=1).values[0])
t(lambda: img.nanmedian())
t(lambda: torch.quantile(img, 0.5))
t(lambda: torch.quantile(img.float(), torch.tensor([0.1, 0.9]), dim=1).shape)
t(lambda: img.sum(dtype=torch.uint8))
t(lambda: img.sum(dim=(1, 2)))
t(lambda: img.prod(dim=0)[0])
t(lambda: img.cumsum(0).dtype)
t(lambda: img.max(dim=0))
t(lambda: img.argmax())
t(lambda: img.amax(dim=(1, 2)))
t(lambda: img.mode(dim=0).values[0])
t(lambda: torch.histc(img.float(), bins=5, min=0, max=0))
t(lambda: torch.histc(img.double(), bins=3))
t(lambda: torch.histc(img.half(), bins=3))
t(lambda: torch.bincount(img.flatten(), minlength=3).sum())
t(lambda: torch.bincount(img.flatten().int()).shape)
t(lambda: torch.bincount(img.flatten(), weights=torch.ones(90, dtype=torch.float16)).dtype)
t(lambda: torch.bincount(torch.tensor([], dtype=torch.long)))
t(lambda: torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
t(lambda: torch.histogram(img.float(), bins=3))
t(lambda: torch.histogram(img, bins=3))
t(lambda: torch.histogramdd(img.float().view(-1, 3), bins=[2, 2, 2]).hist)
t(lambda: (img > 128).sum())
t(lambda: (img > 128).float().mean(dim=(1, 2)))
t(lambda: (img > 128).mean())
t(lambda: img.to(torch.float32).div_(255).sub_(torch.tensor([0.5, 0.4, 0.3])[:, None, None]).max())
t(lambda: img.div_(255))
t(lambda: img.float().div_(255).mul(255).to(torch.uint8).equal(img))
t(lambda: (img.float() / 255 * 255).round().byte().equal(img))
t(lambda: img.clamp(10, 200).min())
t(lambda: img.clamp(10.5, 200))
t(lambda: img.clamp(min=torch.tensor(10.5)))
t(lambda: (img - 200)[0, 0])
t(lambda: (img.int() - 200).abs().to(torch.uint8)[0, 0])
t(lambda: img.sub(300)[0, 0])
t(lambda: img + torch.tensor(300))
t(lambda: torch.where(img > 100, img, 0).dtype)
t(lambda: torch.where(img > 100, img, 0.5).dtype)
t(lambda: img.float().std(dim=(1, 2), keepdim=True).shape)
t(lambda: torch.cdist(img.float().view(3, -1), img.float().view(3, -1)).round())
''',
    'norms_cl': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(2, 6, 5, 5)
xc = x.to(memory_format=torch.channels_last)
for mod in (nn.GroupNorm(3, 6), nn.GroupNorm(1, 6), nn.InstanceNorm2d(6, affine=True), nn.LayerNorm([6, 5, 5]), nn.BatchNorm2d(6), nn.LocalResponseNorm(3)):
    a, b = mod(x), mod(xc)
    print(type(mod).__name__, b.stride(), torch.allclose(a, b, atol=1e-6), a[1, 2, 3].round(decimals=4))
ln = nn.LayerNorm(6)
y = ln(xc.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
print(y.stride(), y.is_contiguous(memory_format=torch.channels_last), y[0, :, 0, 0].round(decimals=4))
class LayerNorm2d(nn.Module):
    def __init__(self, c, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(c)); self.bias = nn.Parameter(torch.zeros(c)); self.eps = eps
    def forward(self, x):
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]
l2 = LayerNorm2d(6)
print(l2(x)[0, :, 0, 0].round(decimals=4), l2(xc).stride())
xr = xc.clone().requires_grad_()
nn.GroupNorm(3, 6)(xr).pow(2).sum().backward()
print(xr.grad.stride(), xr.grad[0, 0, 0].round(decimals=4))
print(F.normalize(x, dim=1)[0, :, 0, 0].round(decimals=4), F.normalize(xc, p=1, dim=1).stride())
c = nn.Conv2d(6, 4, 3, padding=1, padding_mode="reflect")
print(c(xc).stride(), torch.allclose(c(x), c(xc), atol=1e-5))
c2 = nn.Conv2d(6, 4, 3, padding=2, padding_mode="circular", dilation=2)
print(c2(xc).stride(), c2(x).shape)
print(F.conv2d(xc, torch.randn(6, 1, 3, 3), groups=6, padding=1).stride())
print(F.conv_transpose2d(xc, torch.randn(6, 2, 2, 2), stride=2).stride())
print(torch.cat([xc, xc], dim=1).stride(), torch.cat([xc, x], dim=1).stride(), torch.stack([xc, xc]).stride())
print((xc * 2).stride(), (xc + x).stride(), (x + xc).stride(), torch.where(xc > 0, xc, 0.).stride(), xc.clamp(0).stride())
print(xc.mean(1, keepdim=True).stride(), xc.sum((2, 3), keepdim=True).stride(), xc.max(1, keepdim=True).values.stride(), xc.argmax(1).stride())
print(xc[:, :3].stride(), xc[..., 1:].stride(), xc.narrow(1, 0, 2).contiguous().stride(), xc.flip(1).stride(), xc.roll(1, 2).stride())
''',
    'fuzz': PRELUDE + r'''
torch.manual_seed(0)
for trial in range(40):
    n, c = torch.randint(1, 3, (2,)).tolist()
    h, w = torch.randint(1, 9, (2,)).tolist()
    x = torch.randn(n, c, h, w)
    oh, ow = torch.randint(1, 12, (2,)).tolist()
    mode = ["nearest", "nearest-exact", "bilinear", "bicubic", "area"][trial % 5]
    kw = {} if mode in ("nearest", "nearest-exact", "area") else {"align_corners": bool(trial % 2)}
    try:
        y = F.interpolate(x, size=(oh, ow), mode=mode, **kw)
        print(trial, mode, tuple(y.shape), y.sum().round(decimals=3).item(), y.flatten()[:3].round(decimals=4).tolist())
    except Exception as e:
        print(trial, type(e).__name__, e)
    sf = [0.5, 1.3, 2.0, 2.5, 0.75][trial % 5]
    try:
        y = F.interpolate(x, scale_factor=sf, mode=mode, **kw)
        print(" sf", tuple(y.shape), y.sum().round(decimals=3).item())
    except Exception as e:
        print(" sf", type(e).__name__, e)
    ah, aw = torch.randint(1, 10, (2,)).tolist()
    print(" ap", F.adaptive_avg_pool2d(x, (ah, aw)).sum().round(decimals=3).item(), F.adaptive_max_pool2d(x, (ah, aw), return_indices=True)[1].sum().item())
    k = int(torch.randint(1, 4, (1,))); s = int(torch.randint(1, 3, (1,))); p = int(torch.randint(0, 2, (1,)))
    try:
        ct = nn.ConvTranspose2d(c, 2, k, stride=s, padding=p, output_padding=min(s - 1, 1) if s > 1 else 0)
        print(" ct", tuple(ct(x).shape), ct(x).sum().round(decimals=2).item())
    except Exception as e:
        print(" ct", type(e).__name__, e)
    try:
        print(" mp", tuple(F.max_pool2d(x, k, s, min(p, k // 2), ceil_mode=bool(trial % 3 == 0)).shape), F.avg_pool2d(x, k, s, min(p, k // 2), ceil_mode=bool(trial % 3 == 0)).sum().round(decimals=3).item())
    except Exception as e:
        print(" mp", type(e).__name__, e)
    g = torch.rand(n, 3, 4, 2) * 2.4 - 1.2
    print(" gs", F.grid_sample(x, g, mode=["bilinear", "nearest", "bicubic"][trial % 3], padding_mode=["zeros", "border", "reflection"][trial % 3 - 1], align_corners=bool(trial % 2)).sum().round(decimals=3).item())
''',
    'uint8_fuzz': PRELUDE + r'''
torch.manual_seed(0)
for trial in range(60):
    n = 1 + trial % 2; c = [1, 3, 4, 2][trial % 4]
    h, w = torch.randint(1, 20, (2,)).tolist()
    x = torch.randint(0, 256, (n, c, h, w), dtype=torch.uint8)
    if trial % 3 == 0:
        x = x.contiguous(memory_format=torch.channels_last)
    oh, ow = torch.randint(1, 30, (2,)).tolist()
    mode = ["bilinear", "bicubic"][trial % 2]
    aa = bool((trial // 2) % 2); ac = bool((trial // 4) % 2)
    if mode == "bicubic" and not aa and (oh > h or ow > w):
        oh, ow = max(1, h // 2), max(1, w // 2)
    if (oh, ow) == (1, 1) or (oh == 1 and h > 1) or (ow == 1 and w > 1):
        oh, ow = oh + 1, ow + 1
    try:
        y = F.interpolate(x, size=(oh, ow), mode=mode, antialias=aa, align_corners=ac)
        print(trial, mode, aa, ac, tuple(x.shape), tuple(y.shape), y.stride(), y.sum().item(), y.flatten()[:8].tolist())
    except Exception as e:
        print(trial, type(e).__name__, str(e)[:80])
''',
    'params': PRELUDE + r'''
torch.manual_seed(0)
conv = nn.Conv2d(1, 2, 2)
m = nn.Sequential(conv, nn.ReLU(), conv)
print(sum(p.numel() for p in m.parameters()), len(list(m.named_parameters(remove_duplicate=False))), len(list(m.modules())), len(list(m.modules())))
print([n for n, _ in m.named_modules(remove_duplicate=False)])
print(m[0].weight)
print(m[0].bias.data, m[0].bias.detach().requires_grad)
print(nn.Parameter(torch.zeros(2, 2)), nn.Parameter(torch.zeros(2), requires_grad=False))
print(nn.Parameter(torch.zeros(2, 2, dtype=torch.float64)))
print(repr(nn.Parameter(torch.ones(3, dtype=torch.uint8), requires_grad=False)))
bn = nn.BatchNorm2d(2)
print(bn.running_mean, bn.num_batches_tracked, bn.state_dict()["num_batches_tracked"])
def count(model):
    total, trainable = 0, 0
    for name, p in model.named_parameters():
        total += p.numel()
        trainable += p.numel() if p.requires_grad else 0
        print(f"{name:20s} {str(list(p.shape)):16s} {p.numel():>6d} {p.requires_grad}")
    print(f"total={total:,} trainable={trainable:,} size={sum(p.numel() * p.element_size() for p in model.parameters()) / 1024:.2f}KB")
net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.BatchNorm2d(16), nn.Conv2d(16, 32, 3, groups=4), nn.Linear(32, 10))
net[1].weight.requires_grad_(False)
count(net)
print(sum(b.numel() for b in net.buffers()), [b.dtype for b in net.buffers()])
print(net[2].weight.shape, net[2].weight.numel(), net[2].weight.nelement(), net[2].weight.dim(), net[2].weight.ndimension())
print(nn.utils.parameters_to_vector(net.parameters()).shape)
v = nn.utils.parameters_to_vector(net.parameters()) * 0
nn.utils.vector_to_parameters(v, net.parameters()); print(net[3].bias)
print(net.half().state_dict()["1.running_var"].dtype, net[1].num_batches_tracked.dtype)
print(net.double()[0].weight.dtype, net.float().to(torch.bfloat16)[3].weight.dtype)
print(next(net.parameters()).device, next(net.parameters()).is_leaf)
''',
    'flow3d': PRELUDE + r'''
torch.manual_seed(0)
def warp(x, flo):
    B, C, H, W = x.size()
    xx = torch.arange(0, W).view(1, -1).repeat(H, 1)
    yy = torch.arange(0, H).view(-1, 1).repeat(1, W)
    xx = xx.view(1, 1, H, W).repeat(B, 1, 1, 1); yy = yy.view(1, 1, H, W).repeat(B, 1, 1, 1)
    grid = torch.cat((xx, yy), 1).float()
    vgrid = grid + flo
    vgrid[:, 0, :, :] = 2.0 * vgrid[:, 0, :, :].clone() / max(W - 1, 1) - 1.0
    vgrid[:, 1, :, :] = 2.0 * vgrid[:, 1, :, :].clone() / max(H - 1, 1) - 1.0
    vgrid = vgrid.permute(0, 2, 3, 1)
    out = F.grid_sample(x, vgrid, align_corners=True)
    mask = F.grid_sample(torch.ones(x.size()), vgrid, align_corners=True)
    mask = (mask >= 0.9999).float()
    return out * mask, mask
x = torch.randn(2, 3, 6, 7); flo = torch.randn(2, 2, 6, 7)
o, m = warp(x, flo)
print(o.shape, o[0, 0, 0].round(decimals=4), m.sum())
vol = torch.randn(1, 2, 4, 5, 6)
print(F.interpolate(vol, scale_factor=2, mode="trilinear", align_corners=False)[0, 0, 1, 2].round(decimals=4))
print(F.interpolate(vol, size=(3, 3, 3), mode="trilinear", align_corners=True)[0, 1, 1].round(decimals=4))
print(F.interpolate(vol, scale_factor=(1, 2, 0.5), mode="nearest").shape, F.interpolate(vol, size=(2, 7, 3), mode="area")[0, 0, 0].round(decimals=4))
theta = torch.tensor([[[1.0, 0.1, 0.0, 0.1], [0.0, 0.9, 0.1, 0.0], [0.05, 0.0, 1.1, -0.1]]])
g = F.affine_grid(theta, (1, 2, 4, 5, 6), align_corners=False)
print(g.shape, g[0, 1, 2, 3].round(decimals=4))
print(F.grid_sample(vol, g, align_corners=False)[0, 0, 1, 1].round(decimals=4))
print(F.grid_sample(vol, g, mode="nearest", padding_mode="border", align_corners=True)[0, 1, 2, 2])
c3 = nn.Conv3d(2, 4, 3, padding=1); print(c3(vol).shape, nn.MaxPool3d(2)(vol).shape, nn.AvgPool3d(2, ceil_mode=True)(vol).shape)
print(nn.BatchNorm3d(2)(vol)[0, 0, 0, 0].round(decimals=4), nn.ConvTranspose3d(2, 1, 2, 2)(vol).shape)
print(nn.AdaptiveAvgPool3d((1, 2, 3))(vol).round(decimals=4)[0, 0])
vc = vol.to(memory_format=torch.channels_last_3d)
print(vc.stride(), c3(vc).stride(), F.interpolate(vc, scale_factor=2).stride(), nn.MaxPool3d(2)(vc).stride())
print(F.pad(vol, (1, 1, 1, 1, 1, 1), mode="replicate").shape, F.pad(vol, (1, 1, 1, 1, 1, 1), mode="reflect")[0, 0, 0, 0])
print(F.pad(vol, (1, 1, 2, 0, 0, 1), mode="circular").shape)
''',
    'signed_zero': PRELUDE + r'''
torch.manual_seed(0)
x = -torch.ones(1, 1, 3, 3)
z = torch.zeros(1, 1, 3, 3)
nz = -torch.zeros(1, 1, 3, 3)
def s(name, y):
    print(name, (1 / y).flatten()[:10])
s("pad", F.pad(nz, (1, 1)))
s("pad_v", F.pad(x * 0, (1, 1), value=-0.0))
s("reflect", F.pad(nz, (1, 1), mode="reflect"))
s("avg", F.avg_pool2d(nz, 2, padding=1))
s("avg_cip", F.avg_pool2d(nz, 2, padding=1, count_include_pad=False))
s("max", F.max_pool2d(nz, 2, padding=1))
s("amax", F.adaptive_max_pool2d(nz, 2))
s("aavg", F.adaptive_avg_pool2d(nz, 2))
s("interp_near", F.interpolate(nz, scale_factor=2))
s("interp_bil", F.interpolate(nz, scale_factor=2, mode="bilinear"))
s("interp_bic", F.interpolate(nz, scale_factor=2, mode="bicubic"))
s("interp_aa", F.interpolate(nz, size=(2, 2), mode="bilinear", antialias=True))
s("interp_area", F.interpolate(nz, size=(2, 2), mode="area"))
s("gs_in", F.grid_sample(nz, torch.zeros(1, 2, 2, 2), align_corners=False))
s("gs_bic", F.grid_sample(nz, torch.zeros(1, 2, 2, 2), mode="bicubic", align_corners=False))
s("unfold", F.unfold(nz, 2, padding=1))
s("fold", F.fold(F.unfold(nz, 2), (3, 3), 2))
s("conv", F.conv2d(nz, -torch.ones(1, 1, 1, 1)))
s("conv_pad", F.conv2d(x, torch.zeros(1, 1, 3, 3), padding=1))
s("convT", F.conv_transpose2d(nz, torch.ones(1, 1, 2, 2), stride=2))
s("unpool", F.max_unpool2d(*F.max_pool2d(x, 2, return_indices=True), 2, output_size=(3, 3)))
s("relu", F.relu(nz))
s("relu6", F.relu6(x * 0))
s("hardtanh", F.hardtanh(nz))
s("leaky", F.leaky_relu(x, 0.0))
s("clamp0", x.clamp(min=0))
s("clamp_n", nz.clamp(min=0))
s("max0", torch.maximum(x, torch.zeros(1)))
s("where", torch.where(x > 0, x, 0.))
s("mask_mul", x * (x > 0))
s("masked_fill", x.masked_fill(x < 0, 0))
s("dropout_eval", F.dropout(nz, 0.5, training=False))
s("drop2d", F.dropout2d(x, 1.0))
s("bn_eval", F.batch_norm(nz, torch.zeros(1), torch.ones(1), training=False, eps=0.0))
s("pixel", F.pixel_shuffle(nz.repeat(1, 4, 1, 1), 2))
s("flip", nz.flip(-1))
s("roll", nz.roll(1, -1))
s("lerp", torch.lerp(nz, z, 0.5))
s("mean", nz.mean((2, 3)))
s("sum", nz.sum((2, 3)))
s("cumsum", nz.cumsum(-1))
s("softplus_neg", -F.softplus(-torch.full((1, 1, 1, 2), 200.)))
s("hsig", F.hardsigmoid(torch.full((1, 2), -3.0)))
s("hswish", F.hardswish(torch.full((1, 2), -3.0)))
s("silu", F.silu(nz))
s("gelu", F.gelu(nz))
s("elu", F.elu(nz))
s("mish", F.mish(nz))
s("sigmoid_mul", nz * torch.sigmoid(nz))
s("abs", nz.abs())
s("sqrt", nz.sqrt())
s("norm", F.normalize(nz, dim=1))
s("round", (-0.4 * torch.ones(2)).round())
s("trunc", (-0.4 * torch.ones(2)).trunc())
s("floor_div", torch.div(-torch.ones(2), 3, rounding_mode="trunc"))
s("mul_int", (-torch.ones(2)) * 0)
s("ce_zero", F.cross_entropy(torch.zeros(1, 2, 1, 1), torch.zeros(1, 1, 1, dtype=torch.long), reduction="none") * 0)
''',
    'gs_special': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 5)
vals = [float("nan"), float("inf"), -float("inf"), 1e10, -1e10, 1.0, -1.0, 0.999999, 1.000001, 3.3, -2.7]
g = torch.tensor([[[[a, b] for a in vals] for b in vals[:4]]])
gm = g.clamp(-5, 5)
for mode in ("bilinear", "nearest", "bicubic"):
    for pm in ("zeros", "border", "reflection"):
        for ac in (False, True):
            if mode == "bicubic" and pm == "reflection":
                g = gm      # (coordinates of 1e10: see the report)
            try:
                y = F.grid_sample(x, g, mode=mode, padding_mode=pm, align_corners=ac)
                print(mode, pm, ac, y[0, 0].flatten().round(decimals=4).tolist())
            except Exception as e:
                print(mode, pm, ac, type(e).__name__, e)
x3 = torch.randn(1, 1, 3, 4, 5)
g3 = torch.tensor([[[[[a, 0.3, 0.5] for a in vals]]]])
for mode in ("bilinear", "nearest"):
    for pm in ("zeros", "border", "reflection"):
        print(mode, pm, F.grid_sample(x3, g3, mode=mode, padding_mode=pm, align_corners=False).flatten().round(decimals=4).tolist())
''',
    'nonfinite': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 5)
x[0, 0, 1, 2] = float("nan"); x[0, 1, 2, 3] = float("inf"); x[0, 1, 0, 0] = -float("inf")
def p(name, y):
    print(name, tuple(y.shape), y.flatten().round(decimals=4).tolist())
for mode in ("nearest", "nearest-exact", "bilinear", "bicubic", "area"):
    kw = {} if mode in ("nearest", "nearest-exact", "area") else {"align_corners": False}
    p(mode, F.interpolate(x, size=(3, 7), mode=mode, **kw))
p("aa", F.interpolate(x, size=(2, 3), mode="bilinear", antialias=True))
p("aa_c", F.interpolate(x, size=(2, 3), mode="bicubic", antialias=True))
p("max", F.max_pool2d(x, 2, stride=1))
o, i = F.max_pool2d(x, 2, stride=1, return_indices=True); print(i.flatten().tolist())
p("avg", F.avg_pool2d(x, 2, stride=1))
p("amax", F.adaptive_max_pool2d(x, (2, 3)))
print(F.adaptive_max_pool2d(x, (2, 3), return_indices=True)[1].flatten().tolist())
p("aavg", F.adaptive_avg_pool2d(x, (2, 3)))
p("lp", F.lp_pool2d(x, 2, 2))
for mode in ("constant", "reflect", "replicate", "circular"):
    p(mode, F.pad(x, (1, 1, 1, 1), mode=mode)[0, 1, :3])
p("relu", F.relu(x)); p("hardtanh", F.hardtanh(x)); p("relu6", F.relu6(x)); p("clamp", x.clamp(-1, 1))
p("sm", F.softmax(x, 1)); p("lsm", F.log_softmax(x, 1))
p("bn", nn.BatchNorm2d(2)(x))
p("gn", F.group_norm(x, 1))
p("in", F.instance_norm(x))
p("norm", F.normalize(x, dim=1))
p("amax_r", x.amax((2, 3))); p("max_r", x.max(dim=3).values); print(x.max(dim=3).indices.flatten().tolist(), x.argmax(), x.flatten(1).argmax(1))
p("sort", x.flatten().sort().values); print(x.flatten().argsort().tolist(), x.flatten().topk(3).indices.tolist())
p("nanmean", x.nanmean((2, 3))); p("nansum", x.nansum((2, 3)))
print(torch.isfinite(x).all(), torch.isnan(x).any(), x.nan_to_num(0.0, 1e4, -1e4)[0, 1, 0])
p("cat", torch.cat([x, x.flip(3)], 1)[0, :, 0])
p("hist", torch.histc(x.nan_to_num(0, 0, 0), bins=4))
p("mse", F.mse_loss(x, torch.zeros_like(x), reduction="none")[0, 0, 1])
p("ce", F.cross_entropy(x, torch.zeros(1, 4, 5, dtype=torch.long), reduction="none"))
p("gs", F.grid_sample(x, torch.rand(1, 3, 3, 2) * 2 - 1, align_corners=False))
''',
    'extract': PRELUDE + r'''
import copy
torch.manual_seed(0)
class TinyResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.layer1 = nn.Sequential(nn.Conv2d(8, 8, 3, 1, 1), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 5)
    def forward(self, x):
        x = self.layer1(self.stem(x))
        return self.fc(torch.flatten(self.avgpool(x), 1))
m = TinyResNet().eval()
backbone = nn.Sequential(*list(m.children())[:-1])
print(backbone)
x = torch.randn(2, 3, 8, 8)
with torch.inference_mode():
    f = backbone(x)
    print(f.shape, f.requires_grad, f.is_inference(), f.flatten(1)[0].round(decimals=4))
with torch.no_grad():
    print(m(x).round(decimals=4), m(x).requires_grad)
m2 = copy.deepcopy(m)
print(all(torch.equal(a, b) for a, b in zip(m.state_dict().values(), m2.state_dict().values())), m2.fc.weight is m.fc.weight)
m.fc = nn.Linear(8, 3)
print(m.fc, m(x).shape)
m.fc = nn.Identity(); print(m(x).shape)
for name, child in m.named_children():
    print(name, type(child).__name__, sum(p.numel() for p in child.parameters()))
layers = dict(m.named_modules())
print(list(layers.keys()))
print(layers["stem.1"].running_var)
outs = []
hook = m.layer1.register_forward_hook(lambda mod, inp, out: outs.append((inp[0].shape, out.shape)))
m(x); hook.remove(); print(outs)
t = torch.randn(1, 3, 8, 8, requires_grad=True)
m.eval(); score = m(t)[0, 2]
score.backward()
sal = t.grad.abs().amax(dim=1)
print(sal.shape, sal[0, 0].round(decimals=4))
acts = {}; grads = {}
target = m.layer1[0]
h1 = target.register_forward_hook(lambda mod, i, o: acts.__setitem__("a", o.detach()))
h2 = target.register_full_backward_hook(lambda mod, gi, go: grads.__setitem__("g", go[0].detach()))
t.grad = None
out = m(t); out[0, 1].backward()
w = grads["g"].mean(dim=(2, 3), keepdim=True)
cam = F.relu((w * acts["a"]).sum(1, keepdim=True))
cam = F.interpolate(cam, size=(8, 8), mode="bilinear", align_corners=False)
cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-8)
print(cam.shape, cam[0, 0, 0].round(decimals=3))
h1.remove(); h2.remove()
''',
    'losses': PRELUDE + r'''
torch.manual_seed(0)
pred = torch.randn(2, 3, 4, 4, requires_grad=True)
tgt = torch.randint(0, 3, (2, 4, 4))
def lovasz_grad(gt_sorted):
    p = len(gt_sorted)
    gts = gt_sorted.sum()
    intersection = gts - gt_sorted.float().cumsum(0)
    union = gts + (1 - gt_sorted).float().cumsum(0)
    jaccard = 1. - intersection / union
    if p > 1:
        jaccard[1:p] = jaccard[1:p] - jaccard[0:-1]
    return jaccard
probs = pred.softmax(1)
losses = []
for c in range(3):
    fg = (tgt == c).float().flatten()
    errors = (fg - probs[:, c].flatten()).abs()
    errors_sorted, perm = torch.sort(errors, 0, descending=True)
    losses.append(torch.dot(errors_sorted, lovasz_grad(fg[perm])))
l = torch.stack(losses).mean(); print(l.round(decimals=4), l.grad_fn.name())
l.backward(); print(pred.grad[0, :, 0, 0].round(decimals=4))
# tversky
def tversky(p, t, alpha=0.3, beta=0.7, eps=1.):
    oh = F.one_hot(t, 3).permute(0, 3, 1, 2).to(p.dtype)
    tp = (p * oh).sum((0, 2, 3)); fp = (p * (1 - oh)).sum((0, 2, 3)); fn = ((1 - p) * oh).sum((0, 2, 3))
    return 1 - ((tp + eps) / (tp + alpha * fp + beta * fn + eps)).mean()
print(tversky(probs, tgt).round(decimals=4))
# ohem: top-k hardest pixels
ce = F.cross_entropy(pred, tgt, reduction="none").flatten()
hard, _ = ce.topk(int(0.25 * ce.numel()))
print(hard.mean().round(decimals=4), ce.numel())
# boundary via max_pool trick
oh = F.one_hot(tgt, 3).permute(0, 3, 1, 2).float()
boundary = F.max_pool2d(1 - oh, 3, 1, 1) + F.max_pool2d(oh, 3, 1, 1) - 1
print(boundary.sum((2, 3)))
# smooth l1 / giou regression
pb = torch.tensor([[0., 0., 2., 2.], [1., 1., 3., 4.]], requires_grad=True); tb = torch.tensor([[0.5, 0., 2., 2.5], [1., 2., 3., 3.]])
print(F.smooth_l1_loss(pb, tb, beta=1 / 9), F.huber_loss(pb, tb, delta=0.5, reduction="sum"), F.l1_loss(pb, tb, reduction="none"))
# KD loss
s = torch.randn(4, 5); t_ = torch.randn(4, 5); T = 4.0
kd = F.kl_div(F.log_softmax(s / T, dim=1), F.softmax(t_ / T, dim=1), reduction="batchmean") * T * T
print(kd.round(decimals=4))
print(F.kl_div(F.log_softmax(s, 1), F.log_softmax(t_, 1), reduction="batchmean", log_target=True).round(decimals=4))
# contrastive (SimCLR NT-Xent)
z = F.normalize(torch.randn(6, 8), dim=1)
sim = z @ z.t() / 0.5
sim.fill_diagonal_(-float("inf"))
labels = torch.arange(6).roll(3)
print(F.cross_entropy(sim, labels).round(decimals=3))
print(F.triplet_margin_loss(z[:2], z[2:4], z[4:], margin=0.5), F.cosine_embedding_loss(z[:3], z[3:], torch.tensor([1, -1, 1])))
''',
    'printing': PRELUDE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (3, 40, 40), dtype=torch.uint8)
print(img)
print(img.float() / 255)
print(img[0] > 128)
print(torch.randn(2, 3, 30, 30).half().to(memory_format=torch.channels_last)[0, 0])
torch.set_printoptions(precision=2, sci_mode=False, linewidth=120)
print(torch.randn(4, 6) * 1e-4, torch.tensor([1e-8, 1.0, 1e8]))
torch.set_printoptions(profile="short"); print(torch.randn(5, 5))
torch.set_printoptions(threshold=10, edgeitems=1); print(torch.arange(30).view(5, 6))
torch.set_printoptions(profile="default")
print(torch.arange(30).view(5, 6), torch.tensor([0.1, 250.0]), torch.tensor([1e-5, 1e5]))
print(torch.zeros(0, 3, 4, 4), torch.zeros(2, 0, dtype=torch.uint8))
print(torch.tensor([[[[-0.0, 0.0, float("nan"), -float("inf")]]]]))
print(torch.randint(0, 2, (2, 3), dtype=torch.bool), torch.tensor([True]))
print(torch.full((2, 2), 255, dtype=torch.uint8).to(torch.int8), torch.tensor([300]).to(torch.uint8))
''',
    'autocast': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
x = torch.randn(2, 3, 6, 6)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = m(x)
    print(y.dtype, m[1](m[0](x)).dtype)
    loss = F.cross_entropy(y, torch.tensor([0, 1]))
    print(loss.dtype)
loss.backward()
print(m[0].weight.grad.dtype, m[1].weight.grad.dtype, m[1].running_mean.dtype)
print(y.float().round(decimals=1), round(loss.item(), 1))
''',
    'detect_misc': PRELUDE + r'''
torch.manual_seed(0)
# FPN top-down pathway
c3, c4, c5 = torch.randn(1, 8, 16, 16), torch.randn(1, 16, 8, 8), torch.randn(1, 32, 4, 4)
lat = nn.ModuleList([nn.Conv2d(c, 8, 1) for c in (8, 16, 32)])
p5 = lat[2](c5)
p4 = lat[1](c4) + F.interpolate(p5, size=c4.shape[-2:], mode="nearest")
p3 = lat[0](c3) + F.interpolate(p4, scale_factor=2.0, mode="nearest")
print(p3.shape, p4.shape, p3[0, 0, 0, :4].round(decimals=3))
# YOLO-style decode
B, A, G, NC = 1, 3, 4, 2
out = torch.randn(B, A * (5 + NC), G, G).view(B, A, 5 + NC, G, G).permute(0, 1, 3, 4, 2).contiguous()
print(out.shape, out.stride())
gy, gx = torch.meshgrid(torch.arange(G), torch.arange(G), indexing="ij")
grid = torch.stack((gx, gy), 2).view(1, 1, G, G, 2).float()
anchors = torch.tensor([[10., 13.], [16., 30.], [33., 23.]]).view(1, A, 1, 1, 2)
xy = (out[..., :2].sigmoid() + grid) * 8
wh = out[..., 2:4].exp() * anchors
conf = out[..., 4:5].sigmoid(); cls = out[..., 5:].sigmoid()
pred = torch.cat([xy, wh, conf, cls], -1).view(B, -1, 5 + NC)
print(pred.shape, pred[0, :3].round(decimals=2))
scores = (pred[..., 4:5] * pred[..., 5:]).max(-1)
keep = scores.values[0] > 0.2
print(keep.sum(), scores.indices[0][keep][:5])
boxes = torch.cat([pred[0, :, :2] - pred[0, :, 2:4] / 2, pred[0, :, :2] + pred[0, :, 2:4] / 2], 1)[keep]
print(boxes[:3].round(decimals=1), boxes.shape)
# mosaic-ish letterbox
img = torch.rand(3, 20, 30)
r = min(32 / 20, 32 / 30)
nh, nw = int(round(20 * r)), int(round(30 * r))
resized = F.interpolate(img[None], size=(nh, nw), mode="bilinear", align_corners=False)[0]
dw, dh = (32 - nw) / 2, (32 - nh) / 2
top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1)); left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
boxed = F.pad(resized, (left, right, top, bottom), value=114 / 255)
print(r, nh, nw, boxed.shape, boxed[:, 0, 0], top, bottom)
# ignore region masks / label assignment with argmax over IoU
ious = torch.rand(5, 3)
max_iou, gt_idx = ious.max(dim=1)
labels = torch.full((5,), -1, dtype=torch.long)
labels[max_iou < 0.3] = 0; labels[max_iou >= 0.5] = 1
best = ious.argmax(dim=0); labels[best] = 1
print(max_iou.round(decimals=3), gt_idx, labels)
pos = torch.where(labels == 1)[0]; neg = torch.where(labels == 0)[0]
perm = torch.randperm(neg.numel())[:2]
print(pos, neg[perm])
print(torch.nonzero(labels == 1, as_tuple=False).squeeze(1), (labels == 1).nonzero().flatten())
''',
    'arg_errors': PRELUDE + r'''
x = torch.rand(1, 3, 4, 4)
def t(f):
    try:
        r = f(); print("ok", tuple(r.shape) if hasattr(r, "shape") else r)
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
t(lambda: F.interpolate(x, scale_factor=(2, 2, 2)))
t(lambda: F.interpolate(x, size=(4,)))
t(lambda: F.interpolate(x, size=4.5))
t(lambda: F.interpolate(x, scale_factor=-1))
t(lambda: F.interpolate(x, scale_factor=0))
t(lambda: F.interpolate(x, size=(0, 4)))
t(lambda: F.interpolate(x, size=[4, 4], scale_factor=None, mode="bilinear", antialias=True, align_corners=True))
t(lambda: F.interpolate(x, scale_factor=2, mode="area", antialias=True))
t(lambda: F.interpolate(x, size=torch.Size([5, 5])))
t(lambda: F.interpolate(x, size=(torch.tensor(5), 5)))
t(lambda: nn.Upsample(scale_factor=2)(x[0, 0]))
t(lambda: nn.Upsample()(x))
t(lambda: F.pad(x, [1.5, 1]))
t(lambda: F.pad(x, (1,)))
t(lambda: F.pad(x, (-5, 0)))
t(lambda: F.pad(x, (1, 1), mode="reflect", value=2))
t(lambda: F.pad(x[0, 0, 0], (1, 1), mode="replicate"))
t(lambda: F.pad(x, (5, 5, 5, 5), mode="circular"))
t(lambda: F.grid_sample(x, torch.rand(1, 2, 2, 2), align_corners=None))
t(lambda: F.grid_sample(x, torch.rand(1, 2, 2, 2).double()))
t(lambda: F.grid_sample(x.int(), torch.rand(1, 2, 2, 2)))
t(lambda: F.grid_sample(x, torch.rand(1, 2, 2)))
t(lambda: F.affine_grid(torch.rand(1, 2, 3), [1, 3, 4, 4, 4]))
t(lambda: F.affine_grid(torch.rand(1, 2, 3).int(), [1, 3, 4, 4]))
t(lambda: F.affine_grid(torch.rand(1, 2, 3), [1, 3, 1, 4], align_corners=True))
t(lambda: F.max_pool2d(x, (2, 2, 2)))
t(lambda: F.max_pool2d(x, 2, padding=(1, 1, 1)))
t(lambda: F.avg_pool2d(x, 2, divisor_override=0))
t(lambda: F.adaptive_avg_pool2d(x, (2, 2, 2)))
t(lambda: F.adaptive_avg_pool2d(x, -1))
t(lambda: F.max_unpool2d(x, torch.zeros_like(x, dtype=torch.long), 2, output_size=(3,)))
t(lambda: F.unfold(x, 5))
t(lambda: F.unfold(x, 2, dilation=0))
t(lambda: F.fold(torch.rand(1, 12, 4), (3, 3), 2))
t(lambda: F.pixel_unshuffle(x, 3))
t(lambda: F.pixel_shuffle(x, 0))
t(lambda: nn.Conv2d(3, 4, 0))
t(lambda: nn.Conv2d(3, 4, 3, stride=0)(x))
t(lambda: nn.Conv2d(0, 4, 3))
t(lambda: nn.Conv2d(3, 4, 3, groups=0))
t(lambda: nn.ConvTranspose2d(3, 4, 3, stride=1, output_padding=1)(x))
t(lambda: nn.BatchNorm2d(0))
t(lambda: nn.GroupNorm(4, 6))
t(lambda: F.group_norm(x, 2))
t(lambda: F.layer_norm(x, (3, 4)))
t(lambda: nn.Dropout2d(-0.1))
t(lambda: F.dropout2d(x, 2.0))
t(lambda: F.one_hot(torch.tensor([1.0])))
t(lambda: torch.flip(x, []))
t(lambda: torch.rot90(x, 1, (2, 3, 1)))
t(lambda: x.permute(0, 1, 2))
t(lambda: torch.histc(x, bins=-1))
t(lambda: F.cross_entropy(x, torch.zeros(1, 4, 4, dtype=torch.long), ignore_index=1.5))
t(lambda: F.cross_entropy(x, torch.zeros(1, 4, 4, dtype=torch.long), label_smoothing=1.5))
''',
    'arg_errors2': PRELUDE + r'''
x = torch.rand(1, 3, 4, 4)
def t(f):
    try:
        r = f(); print("ok", tuple(r.shape) if hasattr(r, "shape") else r)
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
y = torch.rand(2, 3)
for ii in (1.5, True, None, torch.tensor(1.5), -100, 2):
    t(lambda: F.cross_entropy(y, torch.tensor([0, 1]), ignore_index=ii))
    t(lambda: F.nll_loss(y.log_softmax(1), torch.tensor([0, 1]), ignore_index=ii))
    t(lambda: nn.CrossEntropyLoss(ignore_index=ii)(y, torch.tensor([0, 1])))
t(lambda: F.cross_entropy(y, torch.rand(2, 3), ignore_index=0.5))
t(lambda: F.cross_entropy(y, torch.tensor([0, 1]), ignore_index=1.5, label_smoothing=2.0))
''',
    'ce_uint8_spatial_target': PRELUDE + r'''
torch.manual_seed(0)
logits = torch.randn(2, 3, 4, 4)
for t in (torch.zeros(2, 4, 4, dtype=torch.uint8), torch.zeros(2, 4, dtype=torch.uint8)):
    try:
        print(F.cross_entropy(logits if t.dim() == 3 else logits[..., 0], t))
    except Exception as e:
        print(type(e).__name__, e)
print(F.cross_entropy(logits[:, :, 0, 0], torch.tensor([0, 2], dtype=torch.uint8)))
''',
}
BUGS = {
    'bn_half_backward': ("float16/bfloat16 batch norm's backward: last bits of torch's half "
                         "precision backward arithmetic not followed", PRELUDE + r'''
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    x = (torch.randn(2, 3, 5, 5) * 3 + 1).to(dt)
    xr = x.clone().requires_grad_()
    bn = nn.BatchNorm2d(3).to(dt)
    bn(xr).pow(2).sum().backward()
    print(xr.grad[0, 1], bn.weight.grad, bn.bias.grad)
    xr.grad = None
    bn = nn.BatchNorm2d(3)
    bn(xr).pow(2).sum().backward()
    print(xr.grad[0, 1], bn.weight.grad, bn.bias.grad)
'''),
    'uint8_bicubic_enlarge': ("uint8 bicubic without antialias, enlarging: about one element "
                              "in three hundred is off by one from torch's fixed-point kernel "
                              "(NOTE [ torch's uint8 resampling ])", PRELUDE + r'''
torch.manual_seed(0)
img = torch.randint(0, 256, (2, 3, 11, 13), dtype=torch.uint8)
for ac in (False, True):
    y = F.interpolate(img, size=(3, 40), mode="bicubic", align_corners=ac)
    print(y.sum(dim=(2, 3)).tolist())
    y = F.interpolate(img, size=(26, 26), mode="bicubic", align_corners=ac)
    print(y.sum(dim=(2, 3)).tolist())
'''),
    'softmax_half_channels': ("softmax of float16/bfloat16 over a non-last dim (channels of an "
                              "image batch): about 0.4% of elements one ulp from torch's (its "
                              "exp and sum order there; dim_activations.py is reserved)",
                              PRELUDE + r'''
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    x = (torch.randn(2, 4, 7, 7) * 2).to(dt)
    print(F.softmax(x, dim=1).flatten()[:60])
'''),
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, BUGS)
