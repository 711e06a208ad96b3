// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A share-based rebasing token shaped like Lido's stETH, for the devnet: balances are shares
/// times totalPooledEther / totalShares (floor), and transfers move
/// getSharesByPooledEth(amount) shares (floor), so a holder may end up 1-2 wei short of the
/// amount sent, as on mainnet. submit() stakes ETH; the owner's rebase() sets the pooled ether
/// (what Lido's oracle report does), which moves every balance and the wstETH rate.
contract DevStETH {
    string public constant name = "Liquid staked Ether 2.0 (devnet)";
    string public constant symbol = "stETH";
    uint8 public constant decimals = 18;

    address public immutable owner;
    uint256 private _totalShares;
    uint256 private _totalPooledEther;
    mapping(address => uint256) private _shares;
    mapping(address => mapping(address => uint256)) private _allowances;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event TransferShares(address indexed from, address indexed to, uint256 sharesValue);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Submitted(address indexed sender, uint256 amount, address referral);
    event Rebased(uint256 totalPooledEther, uint256 totalShares);

    constructor() {
        owner = msg.sender;
    }

    function submit(address referral) external payable returns (uint256 sharesAmount) {
        require(msg.value != 0, "ZERO_DEPOSIT");
        sharesAmount = _totalShares == 0 ? msg.value : (msg.value * _totalShares) / _totalPooledEther;
        _totalShares += sharesAmount;
        _totalPooledEther += msg.value;
        _shares[msg.sender] += sharesAmount;
        emit Submitted(msg.sender, msg.value, referral);
        emit Transfer(address(0), msg.sender, getPooledEthByShares(sharesAmount));
        emit TransferShares(address(0), msg.sender, sharesAmount);
    }

    /// Rewards (or a loss) as the oracle reports them: the pooled ether changes, the shares do not.
    function rebase(uint256 newTotalPooledEther) external {
        require(msg.sender == owner, "NOT_OWNER");
        require(newTotalPooledEther != 0, "ZERO_POOLED_ETHER");
        _totalPooledEther = newTotalPooledEther;
        emit Rebased(newTotalPooledEther, _totalShares);
    }

    function totalSupply() external view returns (uint256) {
        return _totalPooledEther;
    }

    function getTotalPooledEther() external view returns (uint256) {
        return _totalPooledEther;
    }

    function getTotalShares() external view returns (uint256) {
        return _totalShares;
    }

    function sharesOf(address account) external view returns (uint256) {
        return _shares[account];
    }

    function balanceOf(address account) external view returns (uint256) {
        return getPooledEthByShares(_shares[account]);
    }

    function getSharesByPooledEth(uint256 ethAmount) public view returns (uint256) {
        return (ethAmount * _totalShares) / _totalPooledEther;
    }

    function getPooledEthByShares(uint256 sharesAmount) public view returns (uint256) {
        return (sharesAmount * _totalPooledEther) / _totalShares;
    }

    function allowance(address holder, address spender) external view returns (uint256) {
        return _allowances[holder][spender];
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        _allowances[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address recipient, uint256 amount) external returns (bool) {
        _transfer(msg.sender, recipient, amount);
        return true;
    }

    function transferFrom(address sender, address recipient, uint256 amount) external returns (bool) {
        uint256 current = _allowances[sender][msg.sender];
        require(current >= amount, "ALLOWANCE_EXCEEDED");
        if (current != type(uint256).max) _allowances[sender][msg.sender] = current - amount;
        _transfer(sender, recipient, amount);
        return true;
    }

    function transferShares(address recipient, uint256 sharesAmount) external returns (uint256) {
        _transferShares(msg.sender, recipient, sharesAmount);
        uint256 tokensAmount = getPooledEthByShares(sharesAmount);
        emit Transfer(msg.sender, recipient, tokensAmount);
        emit TransferShares(msg.sender, recipient, sharesAmount);
        return tokensAmount;
    }

    function _transfer(address sender, address recipient, uint256 amount) private {
        uint256 sharesToTransfer = getSharesByPooledEth(amount);
        _transferShares(sender, recipient, sharesToTransfer);
        emit Transfer(sender, recipient, amount);
        emit TransferShares(sender, recipient, sharesToTransfer);
    }

    function _transferShares(address sender, address recipient, uint256 sharesAmount) private {
        require(sender != address(0), "TRANSFER_FROM_ZERO_ADDR");
        require(recipient != address(0), "TRANSFER_TO_ZERO_ADDR");
        require(recipient != address(this), "TRANSFER_TO_STETH_CONTRACT");
        uint256 current = _shares[sender];
        require(sharesAmount <= current, "BALANCE_EXCEEDED");
        _shares[sender] = current - sharesAmount;
        _shares[recipient] += sharesAmount;
    }
}
